import type { Messages } from '../messages.js';
import { vacancies as en } from '@poruch/core/locales/en_GB.json';
import { vacancies as ua } from '@poruch/core/locales/ua.json';

/** The `vacancies.*` keys in both languages. */
export const vacanciesMessages: Messages = { ua: { vacancies: ua }, en_GB: { vacancies: en } };
