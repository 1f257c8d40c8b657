// Every namespace <poruch-service> shows, in one file (rollup.config.mjs: its own copy).
export {
  common,
  error,
  widget,
  category,
  country_name,
  experience,
  field,
  flag,
  home,
  report_form,
  report_reason,
  service_profile,
  success,
  vacancies,
  validation,
} from '@poruch/core/locales/en_GB.json';
