// Every namespace <poruch-vacancies> shows, in one file (rollup.config.mjs: its own copy).
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
  vacancies,
  alerts,
  validation,
} from '@poruch/core/locales/en_GB.json';
