import * as L from 'leaflet';
import type { MapCluster, MapPoint, MapResult } from '@poruch/core';
import { feature } from 'topojson-client';
import type { WidgetApi } from '../shared/createWidgetApi.js';
import { isAbort } from '../shared/WidgetError.js';
import { filterQuery, type LatLng, type ServiceFilters } from './filters.js';
import { WORLD } from './worldTopology.js';

export interface MapControllerOptions {
  /** The API client the map's clusters come from. */
  api: WidgetApi;
  /** Where the map starts. Defaults to central Europe. */
  center?: LatLng;
  /** The starting zoom. Defaults to 4. */
  zoom?: number;
  /** Tile URL template; `none` or empty shows only the offline base layer. */
  tileUrl?: string;
  /** Tile attribution, already translated. */
  attribution: string;
  /** Zoom with the scroll wheel. Defaults to false (embedded maps must not trap the page's scroll). */
  scrollWheelZoom?: boolean;
  /** Milliseconds of quiet after a move before the map asks the server. Defaults to 150. */
  debounceMs?: number;
  /** Accessible names, already translated. */
  labels: { cluster: (count: number) => string };
  /** Called with every answer drawn. */
  onData: (data: MapResult) => void;
  /** Called when a call fails (not when it is aborted by a newer one). */
  onError: (error: unknown) => void;
  /** Called when the tiles fail and only the offline base layer shows. */
  onTilesFailed: () => void;
  /** Called when a point is clicked (or Enter is pressed on it). */
  onPointClick: (point: MapPoint) => void;
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
  private filters: ServiceFilters = {};
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: AbortController | undefined;
  private tilesFailed = false;
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
    MapController.live += 1;
    L.geoJSON(feature(WORLD, WORLD.objects.countries!) as never, {
      interactive: false,
      style: {
        className: 'base-country',
        color: '#8aa1b5',
        weight: 0.8,
        fillColor: '#f4f1ea',
        fillOpacity: 1,
      },
    }).addTo(this.map);
    if (options.tileUrl && options.tileUrl !== 'none') {
      const tiles = L.tileLayer(options.tileUrl, {
        attribution: options.attribution,
        maxZoom: 19,
        crossOrigin: true,
      });
      tiles.on('tileerror', () => {
        if (this.tilesFailed) return;
        this.tilesFailed = true;
        options.onTilesFailed();
      });
      tiles.addTo(this.map);
    } else {
      this.map.attributionControl.addAttribution(options.attribution);
    }
    this.markers.addTo(this.map);
    this.map.on('moveend', this.onMove);
  }

  /** Sets the filters and loads again at once. */
  setFilters(filters: ServiceFilters) {
    this.filters = filters;
    this.load();
  }

  /** Moves the map; the move then loads the new box. */
  setView(center: LatLng, zoom?: number) {
    this.map.setView([center.lat, center.lng], zoom ?? this.map.getZoom());
  }

  private readonly onMove = () => {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), this.options.debounceMs ?? 150);
  };

  /** Asks the server for the visible box now, aborting any older request. */
  load() {
    clearTimeout(this.timer);
    this.request?.abort();
    const request = new AbortController();
    this.request = request;
    const b = this.map.getBounds();
    const bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]
      .map((n) => Math.round(n * 1e4) / 1e4)
      .join(',');
    this.options.api
      .get<MapResult>('map', {
        query: { bbox, zoom: Math.round(this.map.getZoom()), ...filterQuery(this.filters) },
        signal: request.signal,
      })
      .then(
        (data) => {
          if (request.signal.aborted) return;
          this.draw(data);
          this.options.onData(data);
        },
        (e: unknown) => {
          if (request.signal.aborted || isAbort(e)) return;
          this.options.onError(e);
        },
      );
  }

  private draw(data: MapResult) {
    this.markers.clearLayers();
    for (const c of data.clusters) this.markers.addLayer(this.clusterMarker(c));
    for (const p of data.points) this.markers.addLayer(this.pointMarker(p));
  }

  /** Zooms to where a cluster splits (its expansionZoom), centred on it. */
  zoomInto(c: MapCluster) {
    const zoom = Math.max(this.map.getZoom() + 1, Math.min(c.expansionZoom, this.map.getMaxZoom()));
    this.map.setView([c.lat, c.lng], zoom);
  }

  private clusterMarker(c: MapCluster) {
    const size = clusterSize(c.count);
    const label = this.options.labels.cluster(c.count);
    return L.marker([c.lat, c.lng], {
      icon: L.divIcon({
        className: 'poruch-cluster',
        html: `<span part="cluster">${c.count}</span>`,
        iconSize: [size, size],
      }),
      title: label,
      alt: label,
      keyboard: true,
    })
      .on('click', () => this.zoomInto(c))
      .on(
        'keydown',
        onActivate(() => this.zoomInto(c)),
      );
  }

  private pointMarker(p: MapPoint) {
    const m = L.marker([p.lat, p.lng], {
      icon: L.divIcon({
        className: 'poruch-point',
        html: '<span part="point"></span>',
        iconSize: [22, 22],
        iconAnchor: [11, 22],
      }),
      title: p.name,
      alt: p.name,
      keyboard: true,
    })
      .on('click', () => this.options.onPointClick(p))
      .on(
        'keydown',
        onActivate(() => this.options.onPointClick(p)),
      );
    // Leaflet names the icon by `title`; an explicit label reads better in screen readers.
    m.on('add', () => m.getElement()?.setAttribute('aria-label', p.name));
    return m;
  }

  destroy() {
    clearTimeout(this.timer);
    this.request?.abort();
    this.map.off('moveend', this.onMove);
    this.map.remove();
    MapController.live -= 1;
  }
}
