import type { Messages } from '../shared/messages.js';
import {
  add_service as enAddService,
  category as enCategory,
  confirm as enConfirm,
  dashboard as enDashboard,
  my_services as enMyServices,
  registration as enRegistration,
  service_status as enServiceStatus,
} from '@poruch/core/locales/en_GB.json';
import {
  add_service as uaAddService,
  category as uaCategory,
  confirm as uaConfirm,
  dashboard as uaDashboard,
  my_services as uaMyServices,
  registration as uaRegistration,
  service_status as uaServiceStatus,
} from '@poruch/core/locales/ua.json';

/**
 * The partner texts only the dashboard shows, taken by namespace from core's locale files so
 * they stay out of the public widgets' bundles (shared/messages.ts holds theirs).
 */
export const dashboardMessages: Messages = {
  en_GB: {
    add_service: enAddService,
    category: enCategory,
    confirm: enConfirm,
    dashboard: enDashboard,
    my_services: enMyServices,
    registration: enRegistration,
    service_status: enServiceStatus,
  },
  ua: {
    add_service: uaAddService,
    category: uaCategory,
    confirm: uaConfirm,
    dashboard: uaDashboard,
    my_services: uaMyServices,
    registration: uaRegistration,
    service_status: uaServiceStatus,
  },
};
