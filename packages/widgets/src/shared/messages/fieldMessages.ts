import type { Messages } from '../messages.js';
import { field as en } from '@poruch/core/locales/en_GB.json';
import { field as ua } from '@poruch/core/locales/ua.json';

/** The `field.*` keys in both languages. */
export const fieldMessages: Messages = { ua: { field: ua }, en_GB: { field: en } };
