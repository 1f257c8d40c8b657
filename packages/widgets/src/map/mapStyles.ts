import leafletCss from 'leaflet/dist/leaflet.css?inline';
import { themeVar } from '../shared/theme.js';
import { BASE_LAYER_SEA } from './baseLayer.js';

/** Every `part` of `<poruch-map>`, exported for `::part()`. */
export const MAP_PARTS = [
  'root',
  'map',
  'toolbar',
  'toggle',
  'list',
  'list-item',
  'card',
  'card-title',
  'card-link',
  'button',
  'retry',
  'error',
  'notice',
  'cluster',
  'point',
] as const;

/** Leaflet's CSS and the map's own, inside the shadow root. */
export const mapStyles =
  leafletCss +
  /* css */ `
/* What the loader reserves, kept while the shadow root has nothing to show yet. */
:host { min-height: calc(var(--poruch-map-height, 480px) + 48px); }
/* Fixed heights: the toolbar's 40px and 8px below it, then the view at --poruch-map-height, so the
   widget is exactly as tall as the loader reserves (loader/elements.ts), in the map view, the
   list view, with an error or a notice. */
.view { position: relative; height: var(--poruch-map-height, 480px); overflow: hidden; overflow: clip; }
.map-wrap { position: relative; display: block; height: 100%; }
/* The list view: the map stays laid out at its size under the list (Leaflet keeps measuring it),
   unseen. */
.listing > .map-wrap {
  position: absolute; inset: 0; visibility: hidden; pointer-events: none;
}
.map {
  display: block; box-sizing: border-box; width: 100%; height: 100%;
  border-radius: ${themeVar('--poruch-radius')}; overflow: hidden;
  border: 1px solid ${themeVar('--poruch-color-border')};
  background: ${BASE_LAYER_SEA};
}
.leaflet-container { font: inherit; font-size: 14px; }
.base-country { stroke-linejoin: round; }
.toolbar {
  display: flex; gap: 8px; align-items: center; justify-content: space-between;
  height: 40px; margin: 0 0 8px; overflow: hidden;
}
.toolbar .status {
  flex: 1 1 auto; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
  color: ${themeVar('--poruch-color-muted')}; font-size: 14px;
}
.toggle {
  flex: none; box-sizing: border-box; height: 40px; min-height: 0; padding: 6px 12px; white-space: nowrap; font: inherit; font-weight: 600; cursor: pointer;
  border-radius: ${themeVar('--poruch-radius')}; border: 1px solid ${themeVar('--poruch-color-primary')};
  background: ${themeVar('--poruch-color-surface')}; color: ${themeVar('--poruch-color-primary')};
}
.poruch-cluster, .poruch-point { background: none; border: 0; }
.poruch-cluster span {
  display: flex; align-items: center; justify-content: center; width: 100%; height: 100%;
  border-radius: 50%; font-weight: 700; font-size: 13px;
  background: ${themeVar('--poruch-color-primary')}; color: ${themeVar('--poruch-color-on-primary')};
  box-shadow: 0 0 0 4px color-mix(in srgb, ${themeVar('--poruch-color-primary')} 30%, transparent);
}
.poruch-point span {
  display: block; width: 100%; height: 100%; border-radius: 50% 50% 50% 0; transform: rotate(-45deg);
  background: ${themeVar('--poruch-color-accent')}; border: 2px solid #fff; box-shadow: 0 1px 3px rgba(0,0,0,.4);
}
.leaflet-marker-icon:focus-visible { outline: 3px solid ${themeVar('--poruch-color-focus')}; outline-offset: 2px; }
.notice {
  position: absolute; right: 8px; top: 8px; z-index: 800; max-width: calc(100% - 72px);
  background: rgba(255,255,255,.92); color: #333; font-size: 12px; padding: 2px 8px; border-radius: 4px;
}
.card {
  position: absolute; z-index: 900; left: 8px; right: 8px; bottom: 8px; max-width: 360px;
  display: flex; flex-direction: column; gap: 6px;
  background: ${themeVar('--poruch-color-surface')}; color: ${themeVar('--poruch-color-text')};
  border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')};
  padding: ${themeVar('--poruch-space')}; box-shadow: 0 4px 16px rgba(0,0,0,.18);
}
.card h3 { margin: 0; font-size: 17px; font-weight: 700; padding-right: 40px; }
.card .muted { color: ${themeVar('--poruch-color-muted')}; font-size: 14px; }
.card a { color: ${themeVar('--poruch-color-primary')}; font-weight: 600; }
.card .close {
  position: absolute; top: 6px; right: 6px; width: 36px; height: 36px; font: inherit; font-size: 20px;
  border: 0; background: transparent; cursor: pointer; color: inherit; border-radius: 50%;
}
.list-panel {
  position: absolute; inset: 0; overflow: auto; box-sizing: border-box; padding: 12px;
  border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')};
  background: ${themeVar('--poruch-color-surface')}; color: ${themeVar('--poruch-color-text')};
}
.list-title { margin: 0 0 8px; font-size: 16px; font-weight: 700; }
.list-title:focus { outline: none; }
.list-title:focus-visible { outline: 3px solid ${themeVar('--poruch-color-focus')}; outline-offset: 2px; }
.list { display: flex; flex-direction: column; gap: 6px; margin: 0; padding: 0; list-style: none; }
.list li {
  display: flex; flex-direction: column; gap: 2px; padding: 8px 10px;
  border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')};
}
.list a { color: ${themeVar('--poruch-color-primary')}; font-weight: 600; overflow-wrap: anywhere; }
.list-panel .muted { color: ${themeVar('--poruch-color-muted')}; font-size: 14px; margin: 0; }
.list-panel .more { margin-top: 8px; }
/* An error fills the view, over the map. */
.overlay {
  position: absolute; inset: 0; z-index: 1000; overflow: auto; box-sizing: border-box; padding: 12px;
  background: ${themeVar('--poruch-color-surface')};
}
`;
