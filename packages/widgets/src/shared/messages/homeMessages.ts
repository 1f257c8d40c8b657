import type { Messages } from '../messages.js';
import { home as en } from '@poruch/core/locales/en_GB.json';
import { home as ua } from '@poruch/core/locales/ua.json';

/** The `home.*` keys in both languages. */
export const homeMessages: Messages = { ua: { home: ua }, en_GB: { home: en } };
