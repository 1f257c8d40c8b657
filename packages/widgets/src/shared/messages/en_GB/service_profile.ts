export { service_profile } from '@poruch/core/locales/en_GB.json';
