import { map } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `map.*` keys: Ukrainian inline, English a chunk of its own. */
export const mapMessages: Messages = {
  ua: { map },
  en_GB: () => import('./en_GB/map.js'),
};
