import type { Messages } from '../messages.js';
import { map as en } from '@poruch/core/locales/en_GB.json';
import { map as ua } from '@poruch/core/locales/ua.json';

/** The `map.*` keys in both languages. */
export const mapMessages: Messages = { ua: { map: ua }, en_GB: { map: en } };
