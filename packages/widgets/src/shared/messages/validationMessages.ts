import { validation } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `validation.*` keys: Ukrainian inline, English a chunk of its own. */
export const validationMessages: Messages = {
  ua: { validation },
  en_GB: () => import('./en_GB/validation.js'),
};
