// Every namespace <poruch-report> shows, in one file (rollup.config.mjs: its own copy).
export {
  common,
  error,
  widget,
  field,
  report_form,
  report_reason,
  success,
  validation,
} from '@poruch/core/locales/en_GB.json';
