import type { Messages } from '../messages.js';
import { country_name as en } from '@poruch/core/locales/en_GB.json';
import { country_name as ua } from '@poruch/core/locales/ua.json';

/** The `country_name.*` keys in both languages. */
export const countryNameMessages: Messages = {
  ua: { country_name: ua },
  en_GB: { country_name: en },
};
