export { common } from '@poruch/core/locales/en_GB.json';
