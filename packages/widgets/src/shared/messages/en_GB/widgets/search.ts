// Every namespace <poruch-search> shows, in one file (rollup.config.mjs: its own copy).
export {
  common,
  error,
  widget,
  category,
  country_name,
  home,
  alerts,
  field,
  validation,
} from '@poruch/core/locales/en_GB.json';
