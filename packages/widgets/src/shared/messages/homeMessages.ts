import { home } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `home.*` keys: Ukrainian inline, English a chunk of its own. */
export const homeMessages: Messages = {
  ua: { home },
  en_GB: () => import('./en_GB/home.js'),
};
