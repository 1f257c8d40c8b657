import type { Messages } from '../messages.js';
import { category as en } from '@poruch/core/locales/en_GB.json';
import { category as ua } from '@poruch/core/locales/ua.json';

/** The `category.*` keys in both languages. */
export const categoryMessages: Messages = { ua: { category: ua }, en_GB: { category: en } };
