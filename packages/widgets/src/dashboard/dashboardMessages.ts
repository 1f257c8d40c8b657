import {
  add_service,
  confirm,
  dashboard,
  duplicates,
  my_services,
  registration,
  service_status,
} from '@poruch/core/locales/ua.json';
import type { Messages } from '../shared/messages.js';

/**
 * The partner texts only the dashboard shows, taken by namespace from core's locale files so
 * they stay out of the public widgets' bundles (shared/messages.ts holds theirs): Ukrainian
 * inline, English a chunk of its own. `category` comes from the shared categoryMessages.
 */
export const dashboardMessages: Messages = {
  ua: { add_service, confirm, dashboard, duplicates, my_services, registration, service_status },
  en_GB: () => import('./dashboardMessages.en_GB.js'),
};
