import { country_name } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `country_name.*` keys: Ukrainian inline, English a chunk of its own. */
export const countryNameMessages: Messages = {
  ua: { country_name },
  en_GB: () => import('./en_GB/country_name.js'),
};
