import type { Messages } from '../messages.js';
import { success as en } from '@poruch/core/locales/en_GB.json';
import { success as ua } from '@poruch/core/locales/ua.json';

/** The `success.*` keys in both languages. */
export const successMessages: Messages = { ua: { success: ua }, en_GB: { success: en } };
