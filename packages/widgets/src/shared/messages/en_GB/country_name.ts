export { country_name } from '@poruch/core/locales/en_GB.json';
