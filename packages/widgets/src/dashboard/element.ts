import { defineWidget } from '../shared/defineWidget.js';
import { PoruchDashboard } from './PoruchDashboard.js';

/**
 * `<poruch-dashboard>`: a logged-in partner's services and vacancies, on the site's own origin.
 * On another origin it shows links to the site's login and dashboard. Attributes: `api-base`,
 * `lang`. See docs/embedding.md.
 */
export const PoruchDashboardElement = defineWidget({
  tag: 'poruch-dashboard',
  component: PoruchDashboard,
});
