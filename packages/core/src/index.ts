export * from './categories.js';
export * from './errors.js';
export * from './i18n/locales.js';
export * from './schemas/index.js';
export * from './validation.js';
