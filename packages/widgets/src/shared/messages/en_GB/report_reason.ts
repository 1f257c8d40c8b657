export { report_reason } from '@poruch/core/locales/en_GB.json';
