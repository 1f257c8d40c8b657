import type { Messages } from '../messages.js';
import { service_profile as en } from '@poruch/core/locales/en_GB.json';
import { service_profile as ua } from '@poruch/core/locales/ua.json';

/** The `service_profile.*` keys in both languages. */
export const serviceProfileMessages: Messages = {
  ua: { service_profile: ua },
  en_GB: { service_profile: en },
};
