import { report_form } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `report_form.*` keys: Ukrainian inline, English a chunk of its own. */
export const reportFormMessages: Messages = {
  ua: { report_form },
  en_GB: () => import('./en_GB/report_form.js'),
};
