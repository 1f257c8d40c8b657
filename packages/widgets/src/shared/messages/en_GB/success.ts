export { success } from '@poruch/core/locales/en_GB.json';
