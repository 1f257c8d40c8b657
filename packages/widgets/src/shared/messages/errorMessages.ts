import { error } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `error.*` keys: Ukrainian inline, English a chunk of its own. */
export const errorMessages: Messages = {
  ua: { error },
  en_GB: () => import('./en_GB/error.js'),
};
