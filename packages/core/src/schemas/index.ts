export * from './account.js';
export * from './campaign.js';
export * from './options.js';
export * from './registration.js';
export * from './report.js';
export * from './service.js';
export * from './vacancy.js';
