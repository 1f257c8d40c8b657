import type { PoruchElement } from './defineWidget.js';

// Every widget's tag, declared once here so TypeScript knows `document.querySelector('poruch-map')`.
// Widgets do not redeclare their tag (declarations must agree); refine here if needed.
declare global {
  interface HTMLElementTagNameMap {
    'poruch-map': PoruchElement;
    'poruch-search': PoruchElement;
    'poruch-vacancies': PoruchElement;
    'poruch-report': PoruchElement;
    'poruch-service': PoruchElement;
    'poruch-dashboard': PoruchElement;
  }
}

/** Every widget tag, in the loader's order. */
export const WIDGET_TAGS = [
  'poruch-map',
  'poruch-search',
  'poruch-vacancies',
  'poruch-report',
  'poruch-service',
  'poruch-dashboard',
] as const;
export type WidgetTag = (typeof WIDGET_TAGS)[number];
