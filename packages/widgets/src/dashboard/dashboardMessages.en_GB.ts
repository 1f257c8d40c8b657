export {
  add_service,
  confirm,
  dashboard,
  duplicates,
  my_services,
  registration,
  service_status,
} from '@poruch/core/locales/en_GB.json';
