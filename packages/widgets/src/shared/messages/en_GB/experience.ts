export { experience } from '@poruch/core/locales/en_GB.json';
