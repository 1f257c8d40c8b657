import type { Namespaces } from './messages.js';

/**
 * Each element's English in one chunk: every namespace it shows (./messages/en_GB/widgets/),
 * one request instead of one per namespace. The shell of an element uses it instead of the
 * namespaces' own chunks (which stay for a React app, whose component has no tag). The loader's
 * table (loader/elements.ts) starts the same imports beside the element's code when the element
 * will show English; a test checks that both tables give the same modules.
 */
export const ENGLISH: Readonly<Record<string, () => Promise<Namespaces>>> = {
  'poruch-map': () => import('./messages/en_GB/widgets/map.js'),
  'poruch-search': () => import('./messages/en_GB/widgets/search.js'),
  'poruch-vacancies': () => import('./messages/en_GB/widgets/vacancies.js'),
  'poruch-report': () => import('./messages/en_GB/widgets/report.js'),
  'poruch-service': () => import('./messages/en_GB/widgets/service.js'),
  'poruch-dashboard': () => import('./messages/en_GB/widgets/dashboard.js'),
};
