import type { Service } from '@poruch/core';
import { PoruchDashboard } from '@poruch/widgets';
import { useT } from '../../app/context.js';
import { usePartnerWidget } from './partnerWidget.js';

/**
 * The vacancies of one of my services, under its edit form: `<poruch-dashboard view="vacancies">`
 * (add, edit, the open switch, delete after the site's confirmation).
 */
export function VacanciesPanel({ service }: { service: Service }) {
  const t = useT();
  const partner = usePartnerWidget();
  return (
    <section className="form__section" id="vacancies" aria-labelledby="vacancies-title">
      <h2 id="vacancies-title">{t('vacancies.title')}</h2>
      <PoruchDashboard {...partner} view="vacancies" serviceId={service.id} />
    </section>
  );
}
