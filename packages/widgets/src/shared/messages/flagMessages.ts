import type { Messages } from '../messages.js';
import { flag as en } from '@poruch/core/locales/en_GB.json';
import { flag as ua } from '@poruch/core/locales/ua.json';

/** The `flag.*` keys in both languages. */
export const flagMessages: Messages = { ua: { flag: ua }, en_GB: { flag: en } };
