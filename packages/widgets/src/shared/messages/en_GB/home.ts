export { home } from '@poruch/core/locales/en_GB.json';
