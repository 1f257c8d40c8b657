import { findByCode, flagUrl, type Service } from '@poruch/core';
import { useApp } from '../../app/context.js';
import { FlagImage } from '../../forms/fields.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { useResource } from '../../forms/useResource.js';
import { Link } from '../../router/index.js';
import { myApi } from './myApi.js';

/** My services: status, decline reason, show on / hide from the map, edit, vacancies, delete. */
export function MyServices() {
  const { t, api, confirm, showToast } = useApp();
  const my = myApi(api);
  const list = useResource((signal) => my.services(signal), []);

  const replace = (updated: Service) =>
    list.setData((items) => items.map((s) => (s.id === updated.id ? updated : s)));

  const toggleMap = async (s: Service) => {
    try {
      const updated = await my.showOnMap(s.id, !s.showOnMap);
      replace(updated);
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t(
          updated.showOnMap ? 'success.service_shown_on_map' : 'success.service_removed_from_map',
        ),
      });
    } catch {
      // The client has shown the error.
    }
  };

  const remove = async (s: Service) => {
    const answer = await confirm({
      header: t('my_services.delete_service'),
      message: t('my_services.confirm_delete', { name: s.name }),
      acceptLabel: t('common.delete'),
      rejectLabel: t('common.cancel'),
    });
    if (answer !== 'accept') return;
    try {
      await my.deleteService(s.id);
      list.setData((items) => items.filter((x) => x.id !== s.id));
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.service_deleted'),
      });
    } catch {
      // The client has shown the error.
    }
  };

  return (
    <>
      <div className="section-head">
        <h1>{t('my_services.title')}</h1>
        <Link to="/dashboard/services/new" className="button">
          {t('my_services.add_service')}
        </Link>
      </div>
      {list.status === 'loading' && !list.data && (
        <StateView state="loading" loadingText={t('app.loading')} />
      )}
      {list.status === 'error' && (
        <StateView
          state="error"
          errorText={t('dashboard.load_failed')}
          retryText={t('common.retry')}
          onRetry={list.reload}
        />
      )}
      {list.data && list.data.length === 0 && (
        <div className="card state">
          <p>{t('my_services.empty')}</p>
          <Link to="/dashboard/services/new" className="button">
            {t('my_services.add_service')}
          </Link>
        </div>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="item-list">
          {list.data.map((s) => (
            <li key={s.id} className="card item" data-service-id={s.id}>
              <div className="item__head">
                <FlagImage src={flagUrl(s.countryCode)} />
                <h2 className="item__title">{s.name}</h2>
                <span className={`badge badge--${s.status}`}>
                  {t('my_services.status')}: {t(`service_status.${s.status}`)}
                </span>
                {s.isPartner && (
                  <span className="badge badge--partner">{t('service_profile.partner')}</span>
                )}
              </div>
              <p className="item__meta">
                {findByCode(s.countryCode, t)?.name ?? s.countryCode}
                {s.address && ` · ${s.address}`}
                {s.category && ` · ${t(`category.${s.category}`)}`}
              </p>
              {s.status === 'declined' && s.declineReason && (
                <Notice kind="error">
                  {t('my_services.declined_reason', { reason: s.declineReason })}
                </Notice>
              )}
              <p className="item__meta">
                {s.showOnMap ? t('my_services.on_map') : t('my_services.not_on_map')}
                {' · '}
                {t('my_services.vacancies')}: {s.haveVacancy ? t('common.yes') : t('common.no')}
              </p>
              <div className="item__actions">
                <Link to={`/dashboard/services/${s.id}`} className="button button--small">
                  {t('common.edit')}
                </Link>
                <Link
                  to={`/dashboard/services/${s.id}#vacancies`}
                  className="button button--small button--secondary"
                >
                  {t('my_services.vacancies')}
                </Link>
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => void toggleMap(s)}
                  aria-pressed={s.showOnMap}
                >
                  {s.showOnMap ? t('my_services.hide_from_map') : t('my_services.show_on_map')}
                </button>
                {s.status === 'approved' && (
                  <Link to={`/services/${s.id}`} className="button button--small button--secondary">
                    {t('home.view_profile')}
                  </Link>
                )}
                <button
                  type="button"
                  className="button button--small button--danger"
                  onClick={() => void remove(s)}
                >
                  {t('common.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
