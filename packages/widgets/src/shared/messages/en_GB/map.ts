export { map } from '@poruch/core/locales/en_GB.json';
