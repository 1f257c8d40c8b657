import { useEffect, useMemo, useState } from 'react';
import type { Service, Vacancy } from '@poruch/core';
import { ErrorState } from '../shared/ErrorState.js';
import { useWidget, WidgetContext } from '../shared/WidgetContext.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { countryNameMessages } from '../shared/messages/countryNameMessages.js';
import { experienceMessages } from '../shared/messages/experienceMessages.js';
import { fieldMessages } from '../shared/messages/fieldMessages.js';
import { flagMessages } from '../shared/messages/flagMessages.js';
import { homeMessages } from '../shared/messages/homeMessages.js';
import { reportFormMessages } from '../shared/messages/reportFormMessages.js';
import { reportReasonMessages } from '../shared/messages/reportReasonMessages.js';
import { serviceProfileMessages } from '../shared/messages/serviceProfileMessages.js';
import { successMessages } from '../shared/messages/successMessages.js';
import { vacanciesMessages } from '../shared/messages/vacanciesMessages.js';
import { validationMessages } from '../shared/messages/validationMessages.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { useConnector } from '../useConnector.js';
import { baseStyles } from '../ui/baseStyles.js';
import { UI_PARTS } from '../ui/parts.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { AddServiceForm } from './AddServiceForm.js';
import { createDashboard, type Dashboard } from './createDashboard.js';
import { createCredentialedApi } from './credentialedApi.js';
import { dashboardMessages } from './dashboardMessages.js';
import { dashboardStyles } from './styles.js';
import { VacancyEditor } from './VacancyEditor.js';

export type PoruchDashboardProps = WidgetBaseProps;

/** The `part`s of `<poruch-dashboard>`. */
export const DASHBOARD_PARTS = [
  ...UI_PARTS,
  'dashboard',
  'service',
  'service-form',
  'vacancy-form',
  'login-link',
] as const;

/** The translation namespaces the widget uses beyond common, error and widget. */
const DASHBOARD_MESSAGES = [
  categoryMessages,
  countryNameMessages,
  experienceMessages,
  fieldMessages,
  flagMessages,
  homeMessages,
  reportFormMessages,
  reportReasonMessages,
  serviceProfileMessages,
  successMessages,
  vacanciesMessages,
  validationMessages,
  dashboardMessages,
];

/**
 * `<poruch-dashboard>` as a React component: a logged-in partner's services and vacancies.
 * Only on the site's own origin, where the session cookie is first-party; embedded on another
 * origin it links to the site's login and dashboard instead and calls nothing.
 */
export function PoruchDashboard(props: PoruchDashboardProps) {
  return (
    <WidgetShell
      {...props}
      styles={baseStyles + dashboardStyles}
      parts={DASHBOARD_PARTS}
      handlers={props}
      messages={DASHBOARD_MESSAGES}
    >
      <DashboardRoot />
    </WidgetShell>
  );
}

function DashboardRoot() {
  const ctx = useWidget();
  const value = useMemo(
    () => ({
      ...ctx,
      api: createCredentialedApi(ctx.siteBase),
    }),
    [ctx],
  );
  return (
    <WidgetContext.Provider value={value}>
      {ctx.embedded ? <SiteLinks /> : <OwnDashboard />}
    </WidgetContext.Provider>
  );
}

/** On a foreign origin, or when logged out: links to the site's login and dashboard. */
function SiteLinks() {
  const { t, siteBase, setState } = useWidget();
  useEffect(() => setState('ready'), [setState]);
  return (
    <div className="dashboard card" part="dashboard">
      <h2>{t('dashboard.title')}</h2>
      <p>{t('dashboard.login_text')}</p>
      <p className="service__actions">
        <a
          className="button"
          part="button login-link"
          href={`${siteBase}login?back=${encodeURIComponent('/dashboard')}`}
        >
          {t('dashboard.open_login')}
        </a>
        <a className="button button--secondary" part="button" href={`${siteBase}dashboard`}>
          {t('dashboard.open_dashboard')}
        </a>
      </p>
    </div>
  );
}

function OwnDashboard() {
  const { api, t, lang, setState } = useWidget();
  const [state, dashboard] = useConnector(() => createDashboard(api), [api]);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    void dashboard.load();
  }, [dashboard]);
  useEffect(() => {
    if (state.status === 'logged-out') setState('ready');
    else setState(state.status === 'error' ? 'error' : state.status, state.error ?? undefined);
  }, [state.status, state.error, setState]);

  if (state.status === 'logged-out') return <SiteLinks />;
  if (state.status === 'loading')
    return <StatusMessage kind="loading" text={t('widget.loading')} />;
  if (state.status === 'error' && !state.services.length)
    return <ErrorState error={state.error} onRetry={() => void dashboard.load()} />;

  return (
    <div className="dashboard" part="dashboard">
      <h2>{t('my_services.title')}</h2>
      {state.notice && (
        <p className="notice" role="status">
          {t(state.notice)}
        </p>
      )}
      {state.error != null && <ErrorState error={state.error} />}
      {adding ? (
        <AddServiceForm
          api={api}
          t={t}
          lang={lang}
          onCancel={() => setAdding(false)}
          onCreated={(s) => {
            dashboard.added(s);
            setAdding(false);
          }}
        />
      ) : (
        <p>
          <button type="button" className="button" part="button" onClick={() => setAdding(true)}>
            {t('my_services.add_service')}
          </button>
        </p>
      )}
      {state.services.length === 0 ? (
        <StatusMessage kind="empty" text={t('my_services.empty')} />
      ) : (
        <ul className="services">
          {state.services.map((s) => (
            <ServiceCard
              key={s.id}
              service={s}
              vacancies={state.vacancies[s.id]}
              dashboard={dashboard}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function ServiceCard(props: {
  service: Service;
  vacancies: Vacancy[] | undefined;
  dashboard: Dashboard;
}) {
  const { service, vacancies, dashboard } = props;
  const { t } = useWidget();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <li className="card" part="service">
      <div className="service__head">
        <h3>{service.name}</h3>
        <span className={`badge badge--${service.status}`}>
          {t('my_services.status')}: {t(`service_status.${service.status}`)}
        </span>
      </div>
      {service.status === 'declined' && service.declineReason && (
        <p className="field__error">
          {t('my_services.declined_reason', { reason: service.declineReason })}
        </p>
      )}
      <div className="service__actions">
        <button
          type="button"
          className="button button--secondary"
          part="button"
          onClick={() => void dashboard.setShowOnMap(service, !service.showOnMap)}
        >
          {t(service.showOnMap ? 'my_services.hide_from_map' : 'my_services.show_on_map')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          part="button"
          aria-expanded={open}
          onClick={() => {
            if (!open && !vacancies) void dashboard.loadVacancies(service.id);
            setOpen(!open);
          }}
        >
          {t('my_services.vacancies')}
          {vacancies ? ` (${vacancies.length})` : ''}
        </button>
      </div>
      {open && (
        <div className="vacancies">
          {editing === 'new' ? (
            <VacancyEditor
              t={t}
              onCancel={() => setEditing(null)}
              onSave={async (input) => {
                const ok = await dashboard.saveVacancy(service.id, input);
                if (ok) setEditing(null);
                return ok;
              }}
            />
          ) : (
            <p>
              <button
                type="button"
                className="button"
                part="button"
                onClick={() => setEditing('new')}
              >
                {t('vacancies.add')}
              </button>
            </p>
          )}
          {vacancies?.length === 0 && <p className="muted">{t('vacancies.empty')}</p>}
          {vacancies?.map((v) =>
            editing === v.id ? (
              <VacancyEditor
                key={v.id}
                t={t}
                vacancy={v}
                onCancel={() => setEditing(null)}
                onSave={async (input) => {
                  const ok = await dashboard.saveVacancy(service.id, input, v.id);
                  if (ok) setEditing(null);
                  return ok;
                }}
              />
            ) : (
              <div key={v.id} className="card">
                <div className="service__head">
                  <strong>{v.name}</strong>
                  <span className={`badge ${v.isOpen ? 'badge--open' : ''}`}>
                    {t(v.isOpen ? 'vacancies.open' : 'vacancies.closed')}
                  </span>
                </div>
                <div className="vacancy__actions">
                  <label className="reason">
                    <input
                      type="checkbox"
                      checked={v.isOpen}
                      onChange={(e) =>
                        void dashboard.setVacancyOpen(service.id, v, e.currentTarget.checked)
                      }
                    />
                    <span>{t('vacancies.toggle_open')}</span>
                  </label>
                  <button
                    type="button"
                    className="button button--secondary"
                    part="button"
                    onClick={() => setEditing(v.id)}
                  >
                    {t('common.edit')}
                  </button>
                  {confirming === v.id ? (
                    <span
                      className="confirm"
                      role="group"
                      aria-label={t('vacancies.confirm_delete')}
                    >
                      <span>{t('vacancies.confirm_delete')}</span>
                      <button
                        type="button"
                        className="button button--danger"
                        part="button"
                        onClick={() => {
                          setConfirming(null);
                          void dashboard.deleteVacancy(service.id, v.id);
                        }}
                      >
                        {t('confirm.accept')}
                      </button>
                      <button
                        type="button"
                        className="button button--secondary"
                        part="button"
                        onClick={() => setConfirming(null)}
                      >
                        {t('confirm.reject')}
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="button button--danger"
                      part="button"
                      onClick={() => setConfirming(v.id)}
                    >
                      {t('common.delete')}
                    </button>
                  )}
                </div>
              </div>
            ),
          )}
        </div>
      )}
    </li>
  );
}
