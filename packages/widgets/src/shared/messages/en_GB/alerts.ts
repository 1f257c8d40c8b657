export { alerts } from '@poruch/core/locales/en_GB.json';
