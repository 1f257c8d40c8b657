import { report_reason } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `report_reason.*` keys: Ukrainian inline, English a chunk of its own. */
export const reportReasonMessages: Messages = {
  ua: { report_reason },
  en_GB: () => import('./en_GB/report_reason.js'),
};
