import { defineWidget } from '../shared/defineWidget.js';
import { PoruchReport } from './PoruchReport.js';

/**
 * `<poruch-report service-id="…">`: the report form. Attributes: `api-base`, `lang`, `theme`,
 * `service-id`. Fires `poruch:report-sent` with `{ serviceId, reportId }`. See docs/embedding.md.
 */
export const PoruchReportElement = defineWidget({
  tag: 'poruch-report',
  component: PoruchReport,
  attributes: { 'service-id': 'string' },
});
