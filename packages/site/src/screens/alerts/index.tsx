import { useId, useState } from 'react';
import {
  ALERT_FREQUENCIES,
  ALERT_LIMITS,
  alertFilterLines,
  isApiError,
  translateError,
  translateFieldError,
  type AlertConfirmResult,
  type AlertFrequency,
  type AlertList,
  type AlertView,
  type FieldError,
  type ServiceAlertFilters,
} from '@poruch/core';
import { useResource } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { SelectField, TextField } from '../../forms/fields.js';
import { Link, useQuery, useRoute } from '../../router/index.js';
import '../../forms/forms.css';

/** The message of a refused alert link: expired, forged, or of a deleted alert. */
function linkProblem(error: unknown): string {
  const detail = isApiError(error) ? error.detailKey : undefined;
  if (detail === 'alert_link_expired') return 'alerts.confirm_expired';
  if (detail === 'alert_gone') return 'alerts.confirm_gone';
  return 'alerts.confirm_invalid';
}

/**
 * The alert pages that the mails link to: `/alerts/confirm?token=` (the double opt-in) and
 * `/alerts/manage?token=` (every alert of the address: change, delete one, delete all). The
 * token is the authorisation; it goes to the API in the body, never in a URL of the API.
 */
export default function AlertsScreen() {
  const { name } = useRoute();
  const [query] = useQuery();
  const token = query.get('token') ?? '';
  return name === 'alertsConfirm' ? <Confirm token={token} /> : <Manage token={token} />;
}

function Confirm({ token }: { token: string }) {
  const { t, api } = useApp();
  const result = useResource(
    (signal) =>
      api.send<AlertConfirmResult>('POST', 'alerts/confirm', { token }, { silent: true, signal }),
    [token],
  );
  return (
    <section className="page form-page" data-screen="alerts-confirm">
      <h1>{t('alerts.confirm_title')}</h1>
      <div className="card form__section" data-state={result.status}>
        {result.status === 'loading' && (
          <StateView state="loading" loadingText={t('alerts.confirm_loading')} />
        )}
        {result.status === 'error' && <Notice kind="error">{t(linkProblem(result.error))}</Notice>}
        {result.status === 'ready' && (
          <>
            <Notice kind="success">
              <strong>{t('alerts.confirmed_title')}</strong> {t('alerts.confirmed_text')}
            </Notice>
            <p>
              <Link to={`/alerts/manage?token=${encodeURIComponent(result.data.manageToken)}`}>
                {t('alerts.manage_link')}
              </Link>
            </p>
          </>
        )}
        <p>
          <Link to="/">{t('unsubscribe.back_home')}</Link>
        </p>
      </div>
    </section>
  );
}

function Manage({ token }: { token: string }) {
  const { t, api, confirm, showToast } = useApp();
  const list = useResource(
    (signal) => api.send<AlertList>('POST', 'alerts/manage', { token }, { silent: true, signal }),
    [token],
  );

  const deleteAll = async (email: string) => {
    const answer = await confirm({
      header: t('alerts.delete_all_confirm_title'),
      message: t('alerts.delete_all_confirm_text', { email }),
      acceptLabel: t('alerts.delete_all'),
      danger: true,
    });
    if (answer !== 'accept') return;
    await api.send('DELETE', 'alerts/manage', { token });
    showToast({ severity: 'success', summary: t('alerts.all_deleted') });
    list.reload();
  };

  return (
    <section className="page form-page alerts-page" data-screen="alerts-manage">
      <h1>{t('alerts.manage_title')}</h1>
      {list.status === 'loading' && !list.data && (
        <StateView state="loading" loadingText={t('alerts.manage_loading')} />
      )}
      {list.status === 'error' &&
        (isApiError(list.error) && list.error.status === 400 ? (
          <Notice kind="error">{t('alerts.manage_invalid')}</Notice>
        ) : (
          <StateView state="error" onRetry={list.reload} />
        ))}
      {list.data && (
        <>
          <p>{t('alerts.manage_intro', { email: list.data.email })}</p>
          {list.data.alerts.length === 0 ? (
            <p className="empty" data-testid="alerts-empty">
              {t('alerts.manage_empty')}
            </p>
          ) : (
            <ul className="alerts-list" data-testid="alerts">
              {list.data.alerts.map((alert) => (
                <AlertCard key={alert.id} alert={alert} token={token} onChange={list.reload} />
              ))}
            </ul>
          )}
          {list.data.alerts.length > 0 && (
            <p>
              <button
                type="button"
                className="button button--danger"
                onClick={() => void deleteAll(list.data!.email)}
              >
                {t('alerts.delete_all')}
              </button>
            </p>
          )}
        </>
      )}
      <p>
        <Link to="/">{t('unsubscribe.back_home')}</Link>
      </p>
    </section>
  );
}

/** One alert: its search, how often, and its text and radius to change; save or delete. */
function AlertCard({
  alert,
  token,
  onChange,
}: {
  alert: AlertView;
  token: string;
  onChange: () => void;
}) {
  const { t, api, confirm, showToast, locale } = useApp();
  const id = useId();
  const near = (alert.filters as ServiceAlertFilters).near;
  const [frequency, setFrequency] = useState<AlertFrequency>(alert.frequency);
  const [q, setQ] = useState(alert.filters.q ?? '');
  const [radius, setRadius] = useState(near ? String(near.radiusKm) : '');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const messages = (field: string) =>
    errors.filter((e) => e.field === field).map((e) => translateFieldError(t, e));

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const filters = {
      ...alert.filters,
      q: q.trim() || undefined,
      ...(near ? { near: { ...near, radiusKm: Number(radius) } } : {}),
    };
    setBusy(true);
    try {
      await api.send('PUT', `alerts/manage/${alert.id}`, { token, frequency, filters });
      setErrors([]);
      showToast({ severity: 'success', summary: t('alerts.saved') });
      onChange();
    } catch (failure) {
      setErrors(isApiError(failure) ? failure.fields : []);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const answer = await confirm({
      header: t('alerts.delete_confirm_title'),
      message: t('alerts.delete_confirm_text'),
      acceptLabel: t('alerts.delete'),
      danger: true,
    });
    if (answer !== 'accept') return;
    try {
      await api.send('DELETE', `alerts/manage/${alert.id}`, { token });
      showToast({ severity: 'success', summary: t('alerts.deleted') });
    } catch (failure) {
      // Already gone (another tab): the list shows what is left.
      if (!isApiError(failure) || failure.status !== 404) {
        showToast({ severity: 'error', ...translateError(failure, t) });
      }
    }
    onChange();
  };

  const pushOff = async () => {
    try {
      await api.send('DELETE', `alerts/manage/${alert.id}/push`, { token });
      showToast({ severity: 'success', summary: t('alerts.push_turned_off') });
    } catch (failure) {
      if (!isApiError(failure) || failure.status !== 404) {
        showToast({ severity: 'error', ...translateError(failure, t) });
      }
    }
    onChange();
  };

  return (
    <li className="card alerts-list__item" data-testid="alert">
      <h2 className="card__title">{t(`alerts.kind_${alert.kind}`)}</h2>
      <ul className="alerts-list__filters">
        {alertFilterLines(alert, t).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="card__meta">
        {t('alerts.since', {
          date: new Date(alert.createdAt).toLocaleDateString(locale === 'ua' ? 'uk' : 'en-GB'),
        })}
      </p>
      {!alert.confirmed && <Notice kind="warn">{t('alerts.unconfirmed')}</Notice>}
      {alert.devices > 0 && (
        <p className="alerts-list__devices">
          {t('alerts.push_devices', { count: alert.devices })}{' '}
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void pushOff()}
          >
            {t('alerts.push_off')}
          </button>
        </p>
      )}
      <form className="form alerts-list__form" noValidate onSubmit={(e) => void save(e)}>
        <SelectField
          id={`${id}-frequency`}
          label={t('alerts.frequency')}
          value={frequency}
          onChange={(v) => setFrequency(v as AlertFrequency)}
          options={ALERT_FREQUENCIES.map((f) => ({
            value: f,
            label: t(`alerts.frequency_${f}`),
          }))}
          errors={messages('frequency')}
        />
        <TextField
          id={`${id}-q`}
          label={t(alert.kind === 'services' ? 'home.business_search' : 'home.vacancy_search')}
          type="search"
          value={q}
          onChange={setQ}
          errors={messages('filters.q')}
        />
        {near && (
          <TextField
            id={`${id}-radius`}
            label={`${t('alerts.radius')} (${ALERT_LIMITS.radiusKmMin}–${ALERT_LIMITS.radiusKmMax})`}
            inputMode="text"
            value={radius}
            onChange={setRadius}
            errors={messages('filters.near.radiusKm')}
          />
        )}
        <div className="form__actions">
          <button type="submit" className="button" disabled={busy}>
            {t('common.save')}
          </button>
          <button type="button" className="button button--danger" onClick={() => void remove()}>
            {t('alerts.delete')}
          </button>
        </div>
      </form>
    </li>
  );
}
