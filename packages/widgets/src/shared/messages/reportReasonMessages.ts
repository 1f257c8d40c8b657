import type { Messages } from '../messages.js';
import { report_reason as en } from '@poruch/core/locales/en_GB.json';
import { report_reason as ua } from '@poruch/core/locales/ua.json';

/** The `report_reason.*` keys in both languages. */
export const reportReasonMessages: Messages = {
  ua: { report_reason: ua },
  en_GB: { report_reason: en },
};
