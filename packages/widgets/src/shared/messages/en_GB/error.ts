export { error } from '@poruch/core/locales/en_GB.json';
