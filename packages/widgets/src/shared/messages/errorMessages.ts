import type { Messages } from '../messages.js';
import { error as en } from '@poruch/core/locales/en_GB.json';
import { error as ua } from '@poruch/core/locales/ua.json';

/** The `error.*` keys in both languages. */
export const errorMessages: Messages = { ua: { error: ua }, en_GB: { error: en } };
