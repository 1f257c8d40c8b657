export { validation } from '@poruch/core/locales/en_GB.json';
