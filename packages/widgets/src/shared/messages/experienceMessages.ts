import type { Messages } from '../messages.js';
import { experience as en } from '@poruch/core/locales/en_GB.json';
import { experience as ua } from '@poruch/core/locales/ua.json';

/** The `experience.*` keys in both languages. */
export const experienceMessages: Messages = { ua: { experience: ua }, en_GB: { experience: en } };
