import { defineWidget } from '../shared/defineWidget.js';
import { VacancyBoard } from './VacancyBoard.js';

/**
 * `<poruch-vacancies>`: the vacancy board. Attributes: `api-base`, `lang`, `theme`, `service-id`,
 * `country`, `category`, `page-size`, `alerts`. See docs/embedding.md.
 */
export const PoruchVacanciesElement = defineWidget({
  tag: 'poruch-vacancies',
  component: VacancyBoard,
  attributes: {
    'service-id': 'string',
    country: 'string',
    category: 'string',
    'page-size': 'number',
    alerts: 'boolean',
  },
});
