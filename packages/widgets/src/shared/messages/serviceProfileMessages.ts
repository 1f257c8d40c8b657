import { service_profile } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `service_profile.*` keys: Ukrainian inline, English a chunk of its own. */
export const serviceProfileMessages: Messages = {
  ua: { service_profile },
  en_GB: () => import('./en_GB/service_profile.js'),
};
