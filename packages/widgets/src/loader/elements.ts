/**
 * The loader's table: each tag, the chunk that defines it (imported the first time the tag
 * appears on a page), the height reserved while it loads (`:not(:defined)`) and its English
 * chunk, imported beside the element's when the element will show English (the element's shell
 * imports the same chunk, shared/english.ts, and finds it loaded or on its way).
 * One line per element.
 */
export const ELEMENTS: Record<
  string,
  [load: () => Promise<unknown>, reserve: string, english: () => Promise<unknown>]
> = {
  'poruch-map': [
    () => import('../map/element.js'),
    'calc(var(--poruch-map-height, 480px) + 48px)',
    () => import('../shared/messages/en_GB/widgets/map.js'),
  ],
  'poruch-search': [
    () => import('../search/element.js'),
    '1267.5px',
    () => import('../shared/messages/en_GB/widgets/search.js'),
  ],
  'poruch-vacancies': [
    () => import('../vacancies/element.js'),
    '2233.5px',
    () => import('../shared/messages/en_GB/widgets/vacancies.js'),
  ],
  'poruch-report': [
    () => import('../report/element.js'),
    '399.5px',
    () => import('../shared/messages/en_GB/widgets/report.js'),
  ],
  'poruch-service': [
    () => import('../service/element.js'),
    // A first screen with a short description; the loading state keeps it (service/styles.ts).
    '432.3px',
    () => import('../shared/messages/en_GB/widgets/service.js'),
  ],
  'poruch-dashboard': [
    () => import('../dashboard/element.js'),
    '155.4px',
    () => import('../shared/messages/en_GB/widgets/dashboard.js'),
  ],
};
