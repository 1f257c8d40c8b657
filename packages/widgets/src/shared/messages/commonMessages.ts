import { common } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `common.*` keys: Ukrainian inline, English a chunk of its own. */
export const commonMessages: Messages = {
  ua: { common },
  en_GB: () => import('./en_GB/common.js'),
};
