export { defineElement } from './defineElement.js';
export { emit, EVENT_PREFIX } from './emit.js';
export { warnOnce } from './warnOnce.js';
export * from './shared/index.js';
