import type { BBox, CategoryKey, MapCluster, MapPoint, MapResult } from '@poruch/core';
import Supercluster from 'supercluster';
import { wrapBBox } from '../search/geo.js';

/** What the map needs of one visible service (approved, shown on the map, with a position). */
export interface MapService {
  id: string;
  name: string;
  category: CategoryKey | null;
  lat: number;
  lng: number;
  countryCode: string;
  isOnline: boolean;
}

export type MapFeature = Supercluster.PointFeature<MapService>;

/** Wraps a service as the GeoJSON point supercluster indexes. One object is shared by every index. */
export const toFeature = (service: MapService): MapFeature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [service.lng, service.lat] },
  properties: service,
});

/** Most items (clusters + points) one answer holds. */
export const MAX_ITEMS = 500;
/** Zoom up to which points are clustered; above it every point stands alone. */
export const MAX_CLUSTER_ZOOM = 16;
/**
 * Largest viewport, in 256-px tile pixels, a bbox may cover at the zoom it is asked at. A bigger
 * one (a world bbox at zoom 14) is answered at the highest zoom where it fits.
 */
export const MAX_VIEWPORT_PX = 8192;
/** Cluster radius in pixels of supercluster's 512 extent, i.e. 30 screen pixels on 256-px tiles. */
const RADIUS = 60;

/** Answer of one query: the result and the zoom it was actually clustered at. */
export interface MapQueryResult extends MapResult {
  /** The zoom the clusters belong to; lower than asked when the cap or the viewport limit applied. */
  zoom: number;
}

const lngX = (lng: number) => lng / 360 + 0.5;
const latY = (lat: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
};
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** The highest zoom at which the bbox fits in MAX_VIEWPORT_PX on each side. */
export function fitZoom(b: BBox): number {
  const w =
    b.minLng <= b.maxLng ? lngX(b.maxLng) - lngX(b.minLng) : 1 - (lngX(b.minLng) - lngX(b.maxLng));
  const h = latY(b.minLat) - latY(b.maxLat);
  const size = Math.max(w, h, 1e-12);
  return Math.max(0, Math.floor(Math.log2(MAX_VIEWPORT_PX / 256 / size)));
}

/**
 * The clusters of one set of services at every zoom (supercluster), built once and queried per
 * request. Pure: no database, no timers.
 */
export class MapIndex {
  private readonly index: Supercluster<MapService, Supercluster.AnyProps>;
  private readonly expansion = new Map<number, number>();
  /** How many services the index holds. */
  readonly size: number;

  constructor(features: MapFeature[]) {
    this.index = new Supercluster<MapService>({
      radius: RADIUS,
      extent: 512,
      maxZoom: MAX_CLUSTER_ZOOM,
    }).load(features);
    this.size = features.length;
  }

  /**
   * Clusters and points inside the bbox at the zoom. When more than MAX_ITEMS would come back,
   * the zoom steps down until they fit, so a cluster may be returned where points were asked for.
   */
  query(bbox: BBox, zoom: number): MapQueryResult {
    const b = wrapBBox(bbox);
    const box: [number, number, number, number] = [b.minLng, b.minLat, b.maxLng, b.maxLat];
    let z = Math.min(Math.max(0, Math.floor(zoom)), MAX_CLUSTER_ZOOM + 1, fitZoom(b));
    let items = this.index.getClusters(box, z);
    while (items.length > MAX_ITEMS && z > 0) {
      z--;
      items = this.index.getClusters(box, z);
    }
    // At zoom 0 the whole world holds about a hundred clusters; this is only a safety net.
    if (items.length > MAX_ITEMS) items = items.slice(0, MAX_ITEMS);

    const clusters: MapCluster[] = [];
    const points: MapPoint[] = [];
    for (const f of items) {
      const [lng, lat] = f.geometry.coordinates as [number, number];
      const props = f.properties as Supercluster.ClusterProperties | MapService;
      if ('cluster' in props && props.cluster) {
        clusters.push({
          id: String(props.cluster_id),
          lat: round6(lat),
          lng: round6(lng),
          count: props.point_count,
          expansionZoom: this.expansionZoom(props.cluster_id),
        });
      } else {
        const s = props as MapService;
        points.push({ id: s.id, name: s.name, category: s.category, lat: s.lat, lng: s.lng });
      }
    }
    return { clusters, points, zoom: z };
  }

  /**
   * The zoom at which a cluster breaks apart. Services at one position never do: theirs is
   * MAX_CLUSTER_ZOOM + 1, where they come back as separate points at one spot.
   */
  private expansionZoom(clusterId: number): number {
    let z = this.expansion.get(clusterId);
    if (z === undefined) {
      z = this.index.getClusterExpansionZoom(clusterId);
      this.expansion.set(clusterId, z);
    }
    return z;
  }
}
