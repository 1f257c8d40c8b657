import { flag } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `flag.*` keys: Ukrainian inline, English a chunk of its own. */
export const flagMessages: Messages = {
  ua: { flag },
  en_GB: () => import('./en_GB/flag.js'),
};
