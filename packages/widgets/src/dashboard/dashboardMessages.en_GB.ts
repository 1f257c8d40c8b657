export {
  add_service,
  confirm,
  dashboard,
  my_services,
  registration,
  service_status,
} from '@poruch/core/locales/en_GB.json';
