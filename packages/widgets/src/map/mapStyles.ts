import leafletCss from 'leaflet/dist/leaflet.css?inline';
import { themeVar } from '../shared/theme.js';

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
.view { position: relative; }
.map-wrap { position: relative; display: block; }
/* The list view: the map stays laid out at its size under the list (Leaflet keeps measuring it),
   unseen, and clipped so it does not lengthen the page. */
.view.listing { overflow: hidden; overflow: clip; }
.listing > .map-wrap {
  position: absolute; top: 0; left: 0; right: 0; visibility: hidden; pointer-events: none;
}
.map {
  display: block; width: 100%; height: var(--poruch-map-height, 480px);
  border-radius: ${themeVar('--poruch-radius')}; overflow: hidden;
  border: 1px solid ${themeVar('--poruch-color-border')};
  background: #cfe3f3;
}
.leaflet-container { font: inherit; font-size: 14px; }
.base-country { stroke-linejoin: round; }
.toolbar { display: flex; gap: 8px; align-items: center; justify-content: space-between; flex-wrap: wrap; margin-bottom: 8px; }
.toolbar .status { color: ${themeVar('--poruch-color-muted')}; font-size: 14px; }
.toggle {
  min-height: 40px; padding: 6px 12px; font: inherit; font-weight: 600; cursor: pointer;
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
.list { display: flex; flex-direction: column; gap: 6px; margin: 0; padding: 0; list-style: none;
  max-height: var(--poruch-map-height, 480px); overflow: auto; }
.list li { display: block; }
.list button {
  width: 100%; text-align: start; min-height: 40px; padding: 8px 10px; font: inherit; cursor: pointer;
  border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')};
  background: ${themeVar('--poruch-color-surface')}; color: ${themeVar('--poruch-color-text')};
}
.list .muted { color: ${themeVar('--poruch-color-muted')}; font-size: 14px; }
`;
