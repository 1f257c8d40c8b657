import { defineWidget } from '../shared/defineWidget.js';
import { PoruchSearch, type SearchProps } from './PoruchSearch.js';

/** `<poruch-search>`: defined when this module runs (the loader imports it on first use). */
export const PoruchSearchElement = defineWidget<SearchProps>({
  tag: 'poruch-search',
  component: PoruchSearch,
  attributes: {
    q: 'string',
    country: 'string',
    category: 'string',
    online: 'boolean',
    channel: 'string',
    'page-size': 'number',
    alerts: 'boolean',
  },
});
