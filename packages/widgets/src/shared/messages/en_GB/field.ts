export { field } from '@poruch/core/locales/en_GB.json';
