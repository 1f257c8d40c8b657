import type { Messages } from '../messages.js';
import { common as en } from '@poruch/core/locales/en_GB.json';
import { common as ua } from '@poruch/core/locales/ua.json';

/** The `common.*` keys in both languages. */
export const commonMessages: Messages = { ua: { common: ua }, en_GB: { common: en } };
