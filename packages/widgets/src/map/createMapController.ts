import * as L from 'leaflet';
import type { MapCluster, MapPoint, MapResult } from '@poruch/core';
import { type Api, isAbort } from '@poruch/core/lite';
import { filterQuery, type LatLng, type ServiceFilters } from './filters.js';
import { BASE_LAYER_STYLE, baseCountries } from './baseLayer.js';

export interface MapControllerOptions {
  /** The API client the map's clusters come from. */
  api: Api;
  /** Where the map starts. Defaults to central Europe. */
  center?: LatLng;
  /** The starting zoom. Defaults to 4. */
  zoom?: number;
  /** Tile URL template; `none` or empty shows only the offline base layer. */
  tileUrl?: string;
  /**
   * The tiles' attribution, plain text (translated, or the page's own): shown as text, never as
   * HTML. Defaults to none.
   */
  attribution?: string;
  /** Zoom with the scroll wheel. Defaults to false (embedded maps must not trap the page's scroll). */
  scrollWheelZoom?: boolean;
  /** Milliseconds of quiet after a move before the map asks the server. Defaults to 150. */
  debounceMs?: number;
  /** Accessible names, already translated. */
  labels: { cluster: (count: number) => string };
  /** Called with every answer drawn and the box it is for (`west,south,east,north`). */
  onData: (data: MapResult, bbox: string) => void;
  /** Called when a call fails (not when it is aborted by a newer one). */
  onError: (error: unknown) => void;
  /** Called when the tiles fail and only the offline base layer shows. */
  onTilesFailed: () => void;
  /** Called when a point is clicked (or Enter is pressed on it). */
  onPointClick: (point: MapPoint) => void;
  /** Called after every pan or zoom with the new centre and zoom. */
  onView?: (view: MapView) => void;
}

/** Where the map looks: its centre and zoom. */
export interface MapView {
  center: LatLng;
  zoom: number;
}

/** Default start: central Europe, where most services are. */
export const DEFAULT_CENTER: LatLng = { lat: 50, lng: 15 };
export const DEFAULT_ZOOM = 4;

/**
 * Enter or Space on a focused marker (role="button"). Leaflet 1.9 turns Enter into a click only
 * for markers with a bound popup, so without this a keyboard could reach markers but not use them.
 */
const onActivate = (action: () => void) => (e: L.LeafletEvent) => {
  const key = (e as L.LeafletKeyboardEvent).originalEvent;
  if (key.key !== 'Enter' && key.key !== ' ') return;
  key.preventDefault();
  action();
};

const clusterSize = (count: number) =>
  count < 10 ? 32 : count < 100 ? 38 : count < 1000 ? 44 : 52;

/** What a drawn marker shows; the same key on the next answer keeps the marker (and its focus). */
const clusterKey = (c: MapCluster) => `c|${c.id}|${c.lat}|${c.lng}|${c.count}`;
const pointKey = (p: MapPoint) => `p|${p.id}|${p.lat}|${p.lng}|${p.name}`;

/** Text as HTML that shows it as it is (Leaflet puts attributions in as HTML). */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** True when `el` holds the focus, in the document or in the shadow root it lives in. */
const hasFocus = (el: Element | undefined): boolean => {
  if (!el) return false;
  const root = el.getRootNode() as Document | ShadowRoot;
  return root.activeElement === el;
};

/** A drawn marker and the item it stands for (kept current: handlers read it on use). */
interface Drawn<T> {
  marker: L.Marker;
  item: T;
}

/**
 * The map's logic, without React: a Leaflet map with the offline base layer of country
 * shapes, optional tiles, and the server's clusters and points for the visible box. Moves are
 * debounced and a newer request aborts the older one. `destroy()` removes every listener,
 * timer, request and the Leaflet instance.
 */
export class MapController {
  readonly map: L.Map;
  private readonly options: MapControllerOptions;
  private readonly markers = L.layerGroup();
  /** The markers on the map by key, so a redraw keeps those that stay (and the focus in one). */
  private readonly drawn = new Map<string, Drawn<MapCluster> | Drawn<MapPoint>>();
  private filters: ServiceFilters = {};
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: AbortController | undefined;
  /**
   * The query of the answer drawn or on its way. A `moveend` that asks for the same box, zoom
   * and filters sends nothing: Leaflet fires one 200 ms after any resize that moved the centre's
   * pixel, even when the size went back (a full-page screenshot, a rotated phone), and that
   * reload redrew the markers under a keyboard's focus. Cleared when the call fails, so a retry
   * or the next move asks again.
   */
  private asked: string | undefined;
  /** The last answer drawn, its query and box. */
  private shown: { query: string; data: MapResult; bbox: string } | undefined;
  private tilesFailed = false;
  /** Measures the container again when its box changes, not only when the window does. */
  private readonly resizes: ResizeObserver | undefined;
  /** Live instances, for the leak test and the benchmark. */
  static live = 0;

  constructor(container: HTMLElement, options: MapControllerOptions) {
    this.options = options;
    const center = options.center ?? DEFAULT_CENTER;
    this.map = L.map(container, {
      center: [center.lat, center.lng],
      zoom: options.zoom ?? DEFAULT_ZOOM,
      minZoom: 1,
      maxZoom: 18,
      scrollWheelZoom: options.scrollWheelZoom ?? false,
      worldCopyJump: true,
      // The base layer and markers draw with SVG; one renderer for both keeps the DOM small.
      preferCanvas: false,
    });
    // A container that is not laid out (display: none: the list view, a closed tab, a hidden
    // host) measures 0×0. Leaflet would take that size on the next window resize, pan, and the
    // `moveend` would ask for a box of a single point, drawn as an empty map and list. A hidden
    // map keeps the size and box it last had instead; shown again, it measures its real size.
    const invalidateSize = this.map.invalidateSize.bind(this.map);
    this.map.invalidateSize = (o?: boolean | L.InvalidateSizeOptions) =>
      this.laidOut() ? invalidateSize(o) : this.map;
    // Leaflet listens to the window only; a host that shows the map again (a tab, `hidden`
    // removed) resizes the container without a window resize.
    if (typeof ResizeObserver !== 'undefined') {
      this.resizes = new ResizeObserver(() => this.map.invalidateSize({ debounceMoveend: true }));
      this.resizes.observe(container);
    }
    MapController.live += 1;
    L.geoJSON(baseCountries() as never, {
      interactive: false,
      style: { ...BASE_LAYER_STYLE },
    }).addTo(this.map);
    const attribution = options.attribution ? escapeHtml(options.attribution) : undefined;
    if (options.tileUrl && options.tileUrl !== 'none') {
      const tiles = L.tileLayer(options.tileUrl, {
        ...(attribution ? { attribution } : {}),
        maxZoom: 19,
        crossOrigin: true,
      });
      tiles.on('tileerror', () => {
        if (this.tilesFailed) return;
        this.tilesFailed = true;
        options.onTilesFailed();
      });
      tiles.addTo(this.map);
    } else if (attribution) {
      this.map.attributionControl.addAttribution(attribution);
    }
    this.markers.addTo(this.map);
    this.map.on('moveend', this.onMove);
  }

  /**
   * Sets the filters and loads at once if they change the query. When they do not (say
   * `category: 'all'` for none), the answer drawn is handed to `onData` again: the caller went
   * to `loading` and waits for an answer.
   */
  setFilters(filters: ServiceFilters) {
    this.filters = filters;
    if (this.load()) return;
    if (this.shown && this.shown.query === this.asked) {
      this.options.onData(this.shown.data, this.shown.bbox);
    }
  }

  /** False while the container is not laid out (measures 0×0). */
  private laidOut(): boolean {
    const c = this.map.getContainer();
    return c.clientWidth > 0 && c.clientHeight > 0;
  }

  /** Moves the map; the move then loads the new box. */
  setView(center: LatLng, zoom?: number) {
    this.map.setView([center.lat, center.lng], zoom ?? this.map.getZoom());
  }

  private readonly onMove = () => {
    const { lat, lng } = this.map.getCenter();
    this.options.onView?.({ center: { lat, lng }, zoom: this.map.getZoom() });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), this.options.debounceMs ?? 150);
  };

  /**
   * Asks the server for the visible box now, aborting any older request, unless the same query
   * is already drawn or on its way, or the map has never had a size (built hidden: its box is a
   * single point; the `moveend` of its first real size loads). Returns whether it asked.
   */
  load(): boolean {
    clearTimeout(this.timer);
    const size = this.map.getSize();
    if (!size.x || !size.y) return false;
    const b = this.map.getBounds();
    const bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]
      .map((n) => Math.round(n * 1e4) / 1e4)
      .join(',');
    const query = { bbox, zoom: Math.round(this.map.getZoom()), ...filterQuery(this.filters) };
    const key = JSON.stringify(query);
    if (key === this.asked) return false;
    this.asked = key;
    this.request?.abort();
    const request = new AbortController();
    this.request = request;
    this.options.api.get<MapResult>('map', { query, signal: request.signal }).then(
      (data) => {
        if (request.signal.aborted) return;
        this.shown = { query: key, data, bbox };
        this.draw(data);
        this.options.onData(data, bbox);
      },
      (e: unknown) => {
        if (request.signal.aborted || isAbort(e)) return;
        this.asked = undefined;
        this.options.onError(e);
      },
    );
    return true;
  }

  /**
   * Draws an answer over the last one. Markers whose cluster or point is still there stay as
   * they are (the same DOM element, so a focused marker keeps the focus); only the others are
   * removed or added. When the focused marker goes (its cluster split, say), the focus moves to
   * the nearest new marker, else to the map, never back to the page's start.
   */
  private draw(data: MapResult) {
    const next = new Map<string, MapCluster | MapPoint>();
    for (const c of data.clusters) next.set(clusterKey(c), c);
    for (const p of data.points) next.set(pointKey(p), p);

    let lostFocusAt: L.LatLng | undefined;
    for (const [key, d] of this.drawn) {
      if (next.has(key)) continue;
      if (hasFocus(d.marker.getElement())) lostFocusAt = d.marker.getLatLng();
      this.markers.removeLayer(d.marker);
      this.drawn.delete(key);
    }
    const added: L.Marker[] = [];
    for (const [key, item] of next) {
      const kept = this.drawn.get(key);
      if (kept) {
        kept.item = item;
        continue;
      }
      const d = key.startsWith('c|')
        ? this.clusterMarker(item as MapCluster)
        : this.pointMarker(item as MapPoint);
      this.drawn.set(key, d);
      this.markers.addLayer(d.marker);
      added.push(d.marker);
    }
    if (lostFocusAt) this.refocus(lostFocusAt, added);
  }

  /** Gives the focus that a removed marker at `at` held to the nearest new marker, or the map. */
  private refocus(at: L.LatLng, candidates: L.Marker[]) {
    const from = this.map.latLngToLayerPoint(at);
    let best: HTMLElement | undefined;
    let bestDistance = Infinity;
    for (const m of candidates) {
      const el = m.getElement();
      if (!el) continue;
      const distance = from.distanceTo(this.map.latLngToLayerPoint(m.getLatLng()));
      if (distance < bestDistance) {
        best = el;
        bestDistance = distance;
      }
    }
    // preventScroll: focus must not scroll the map's overflow-hidden box or the page.
    (best ?? this.map.getContainer()).focus({ preventScroll: true });
  }

  /** Zooms to where a cluster splits (its expansionZoom), centred on it. */
  zoomInto(c: MapCluster) {
    const zoom = Math.max(this.map.getZoom() + 1, Math.min(c.expansionZoom, this.map.getMaxZoom()));
    this.map.setView([c.lat, c.lng], zoom);
  }

  /**
   * A marker the keyboard reaches (role="button", Enter or Space). `autoPanOnFocus` is off:
   * Leaflet would pan the map to a marker near the edge when Tab reaches it, and the pan loads
   * and redraws the markers under the keyboard's feet.
   */
  private marker(latlng: L.LatLngExpression, icon: L.DivIcon, label: string) {
    return L.marker(latlng, {
      icon,
      title: label,
      alt: label,
      keyboard: true,
      autoPanOnFocus: false,
    });
  }

  private clusterMarker(c: MapCluster): Drawn<MapCluster> {
    const size = clusterSize(c.count);
    const marker = this.marker(
      [c.lat, c.lng],
      L.divIcon({
        className: 'poruch-cluster',
        html: `<span part="cluster">${c.count}</span>`,
        iconSize: [size, size],
      }),
      this.options.labels.cluster(c.count),
    );
    const d: Drawn<MapCluster> = { marker, item: c };
    marker
      .on('click', () => this.zoomInto(d.item))
      .on(
        'keydown',
        onActivate(() => this.zoomInto(d.item)),
      );
    return d;
  }

  private pointMarker(p: MapPoint): Drawn<MapPoint> {
    const marker = this.marker(
      [p.lat, p.lng],
      L.divIcon({
        className: 'poruch-point',
        html: '<span part="point"></span>',
        iconSize: [22, 22],
        iconAnchor: [11, 22],
      }),
      p.name,
    );
    const d: Drawn<MapPoint> = { marker, item: p };
    marker
      .on('click', () => this.options.onPointClick(d.item))
      .on(
        'keydown',
        onActivate(() => this.options.onPointClick(d.item)),
      );
    // Leaflet names the icon by `title`; an explicit label reads better in screen readers.
    marker.on('add', () => marker.getElement()?.setAttribute('aria-label', p.name));
    return d;
  }

  destroy() {
    clearTimeout(this.timer);
    this.request?.abort();
    this.resizes?.disconnect();
    this.map.off('moveend', this.onMove);
    this.drawn.clear();
    this.map.remove();
    MapController.live -= 1;
  }
}
