// `document.querySelector('poruch-map')` is typed in types/elements.ts (HTMLElementTagNameMap).

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
