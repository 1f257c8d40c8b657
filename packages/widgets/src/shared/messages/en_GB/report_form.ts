export { report_form } from '@poruch/core/locales/en_GB.json';
