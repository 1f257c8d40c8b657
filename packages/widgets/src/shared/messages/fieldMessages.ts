import { field } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `field.*` keys: Ukrainian inline, English a chunk of its own. */
export const fieldMessages: Messages = {
  ua: { field },
  en_GB: () => import('./en_GB/field.js'),
};
