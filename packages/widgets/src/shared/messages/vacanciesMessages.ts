import { vacancies } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `vacancies.*` keys: Ukrainian inline, English a chunk of its own. */
export const vacanciesMessages: Messages = {
  ua: { vacancies },
  en_GB: () => import('./en_GB/vacancies.js'),
};
