import { success } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `success.*` keys: Ukrainian inline, English a chunk of its own. */
export const successMessages: Messages = {
  ua: { success },
  en_GB: () => import('./en_GB/success.js'),
};
