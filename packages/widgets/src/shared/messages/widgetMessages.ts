import type { Messages } from '../messages.js';
import { widget as en } from '@poruch/core/locales/en_GB.json';
import { widget as ua } from '@poruch/core/locales/ua.json';

/** The `widget.*` keys in both languages. */
export const widgetMessages: Messages = { ua: { widget: ua }, en_GB: { widget: en } };
