import { experience } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `experience.*` keys: Ukrainian inline, English a chunk of its own. */
export const experienceMessages: Messages = {
  ua: { experience },
  en_GB: () => import('./en_GB/experience.js'),
};
