import { widget } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `widget.*` keys: Ukrainian inline, English a chunk of its own. */
export const widgetMessages: Messages = {
  ua: { widget },
  en_GB: () => import('./en_GB/widget.js'),
};
