export { category } from '@poruch/core/locales/en_GB.json';
