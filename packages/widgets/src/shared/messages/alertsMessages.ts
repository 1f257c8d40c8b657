import { alerts } from '@poruch/core/locales/ua.json';
import type { Messages } from './types.js';

/** The `alerts.*` keys: Ukrainian inline, English a chunk of its own. */
export const alertsMessages: Messages = {
  ua: { alerts },
  en_GB: () => import('./en_GB/alerts.js'),
};
