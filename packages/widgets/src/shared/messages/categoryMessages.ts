import { category } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `category.*` keys: Ukrainian inline, English a chunk of its own. */
export const categoryMessages: Messages = {
  ua: { category },
  en_GB: () => import('./en_GB/category.js'),
};
