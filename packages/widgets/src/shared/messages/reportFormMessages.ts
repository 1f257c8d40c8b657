import type { Messages } from '../messages.js';
import { report_form as en } from '@poruch/core/locales/en_GB.json';
import { report_form as ua } from '@poruch/core/locales/ua.json';

/** The `report_form.*` keys in both languages. */
export const reportFormMessages: Messages = { ua: { report_form: ua }, en_GB: { report_form: en } };
