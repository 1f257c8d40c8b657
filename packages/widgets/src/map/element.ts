import { defineWidget } from '../shared/defineWidget.js';
import { parseCenter } from './filters.js';
import { PoruchMap, type MapProps } from './PoruchMap.js';

/** `<poruch-map>`: defined when this module runs (the loader imports it on first use). */
export const PoruchMapElement = defineWidget<MapProps>({
  tag: 'poruch-map',
  component: PoruchMap,
  attributes: {
    country: 'string',
    category: 'string',
    online: 'boolean',
    filters: 'json',
    center: parseCenter,
    zoom: 'number',
    'tile-url': 'string',
    'scroll-zoom': 'boolean',
    channel: 'string',
    'list-view': 'boolean',
  },
});
