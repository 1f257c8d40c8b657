import { defineWidget } from '../shared/defineWidget.js';
import { MapController } from './createMapController.js';
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
    q: 'string',
    filters: 'json',
    center: parseCenter,
    zoom: 'number',
    'tile-url': 'string',
    'tile-attribution': 'string',
    'scroll-zoom': 'boolean',
    channel: 'string',
    'list-view': 'boolean',
  },
});

// The script-tag build has no other handle on the chunk's MapController: the leak test and the
// benchmark read `customElements.get('poruch-map').liveMaps`.
if (!Object.prototype.hasOwnProperty.call(PoruchMapElement, 'liveMaps')) {
  Object.defineProperty(PoruchMapElement, 'liveMaps', {
    configurable: true,
    get: () => MapController.live,
  });
}
