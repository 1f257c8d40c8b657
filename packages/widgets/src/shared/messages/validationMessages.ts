import type { Messages } from '../messages.js';
import { validation as en } from '@poruch/core/locales/en_GB.json';
import { validation as ua } from '@poruch/core/locales/ua.json';

/** The `validation.*` keys in both languages. */
export const validationMessages: Messages = { ua: { validation: ua }, en_GB: { validation: en } };
