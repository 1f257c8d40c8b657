import { useCallback } from 'react';
import type { Service } from '@poruch/core';
import { PoruchDashboard } from '@poruch/widgets';
import { useT } from '../../app/context.js';
import { Link } from '../../router/index.js';
import { usePartnerWidget } from './partnerWidget.js';

/**
 * My services (`/dashboard/services`): the service cards of `<poruch-dashboard>` (status, decline
 * reason, show on / hide from the map, delete after the site's confirmation), with the site's
 * heading, its add link, and its own links on each card (edit page, vacancies, public profile,
 * and the embed builder with the service's vacancy board).
 */
export function MyServices() {
  const t = useT();
  const partner = usePartnerWidget();
  const actions = useCallback(
    (s: Service) => (
      <>
        <Link to={`/dashboard/services/${s.id}`} className="button">
          {t('common.edit')}
        </Link>
        <Link to={`/dashboard/services/${s.id}#vacancies`} className="button button--secondary">
          {t('my_services.vacancies')}
        </Link>
        {s.status === 'approved' && (
          <>
            <Link to={`/services/${s.id}`} className="button button--secondary">
              {t('home.view_profile')}
            </Link>
            <Link
              to={`/embed?widget=vacancies&service=${encodeURIComponent(s.id)}`}
              className="button button--secondary"
            >
              {t('my_services.embed_vacancies')}
            </Link>
          </>
        )}
      </>
    ),
    [t],
  );
  return (
    <>
      <div className="section-head">
        <h1>{t('my_services.title')}</h1>
        <Link to="/dashboard/services/new" className="button">
          {t('my_services.add_service')}
        </Link>
      </div>
      <PoruchDashboard {...partner} view="services" renderServiceActions={actions} />
    </>
  );
}
