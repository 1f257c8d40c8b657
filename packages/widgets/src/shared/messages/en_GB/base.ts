export { common, error, widget } from '@poruch/core/locales/en_GB.json';
