/**
 * The loader's table: each tag, the chunk that defines it (imported the first time the tag
 * appears on a page) and the height reserved while it loads (`:not(:defined)`).
 * One line per element.
 */
export const ELEMENTS: Record<string, [load: () => Promise<unknown>, reserve: string]> = {
  'poruch-map': [() => import('../map/element.js'), '480px'],
  'poruch-search': [() => import('../search/element.js'), '320px'],
  'poruch-vacancies': [() => import('../vacancies/element.js'), '480px'],
  'poruch-report': [() => import('../report/element.js'), '360px'],
  'poruch-service': [() => import('../service/element.js'), '480px'],
  'poruch-dashboard': [() => import('../dashboard/element.js'), '240px'],
};
