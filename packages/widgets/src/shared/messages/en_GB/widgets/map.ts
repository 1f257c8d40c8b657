// Every namespace <poruch-map> shows, in one file (rollup.config.mjs: its own copy).
export { common, error, widget, category, map } from '@poruch/core/locales/en_GB.json';
