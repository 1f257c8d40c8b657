import { defineWidget } from '../shared/defineWidget.js';
import { PoruchService } from './PoruchService.js';

/**
 * `<poruch-service service-id="…">`: the service profile. Attributes: `api-base`, `lang`,
 * `service-id`, `back-href`, `tab`. Fires `poruch:back` and `poruch:report-sent`.
 * See docs/embedding.md.
 */
export const PoruchServiceElement = defineWidget({
  tag: 'poruch-service',
  component: PoruchService,
  attributes: { 'service-id': 'string', 'back-href': 'string', tab: 'string' },
});
