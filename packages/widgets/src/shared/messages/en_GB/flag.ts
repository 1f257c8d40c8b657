export { flag } from '@poruch/core/locales/en_GB.json';
