export { vacancies } from '@poruch/core/locales/en_GB.json';
