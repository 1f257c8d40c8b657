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

/** Supercluster's inner trees (version 8): per zoom, its entries as flat numbers. */
interface Trees {
  trees: { data: number[] }[];
  stride: number;
}
// Fields of an entry in supercluster's flat arrays.
const OFFSET_ID = 3;
const OFFSET_PARENT = 4;

/** A group of matching services at one zoom: their sum of projected positions, and who. */
interface Group {
  /** The index's entry at that zoom that holds them. */
  entry: number;
  x: number;
  y: number;
  members: number[];
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
  /** For each zoom up to MAX_CLUSTER_ZOOM, each service's entry at that zoom (see `among`). */
  private levels?: Int32Array[];
  /** Each service's position in `features`, by id. */
  private positions?: Map<string, number>;

  constructor(private readonly features: MapFeature[]) {
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
        points.push(pointOf(props as MapService));
      }
    }
    return { clusters, points, zoom: z };
  }

  /**
   * The services among `ids` (others are ignored) that `pick` accepts, as a view answering
   * `query` like an index of their own, without building one: at each zoom the matching
   * services of one cluster of this index form one cluster of the view (at their mean position,
   * counting them), or a point when only one of them is in it. So a subset of the catalogue (a
   * text query's matches) is clustered in time that grows with its size, not the catalogue's.
   */
  among(ids: Iterable<string>, pick: (s: MapService) => boolean = () => true): MapView {
    this.prepare();
    const members: number[] = [];
    const seen = new Set<number>();
    for (const id of ids) {
      const at = this.positions!.get(id);
      if (at === undefined || seen.has(at) || !pick(this.features[at]!.properties)) continue;
      seen.add(at);
      members.push(at);
    }
    return { size: members.length, query: (bbox, zoom) => this.queryAmong(members, bbox, zoom) };
  }

  /**
   * Reads what `among` needs (each service's position by id, and its cluster at every zoom: about
   * a tenth of the build's time) if not done yet. MapCache calls it after building the index of
   * every service, so no request waits for it.
   */
  prepare(): void {
    this.positions ??= new Map(this.features.map((f, i) => [f.properties.id, i]));
    this.level(0);
  }

  /** `query` for the services at `members` (positions in `features`) alone. */
  private queryAmong(members: number[], bbox: BBox, zoom: number): MapQueryResult {
    const b = wrapBBox(bbox);
    let z = Math.min(Math.max(0, Math.floor(zoom)), MAX_CLUSTER_ZOOM + 1, fitZoom(b));
    const inBox = boxTest(b);
    let groups = this.groups(members, z, inBox);
    while (groups.length > MAX_ITEMS && z > 0) {
      z--;
      groups = this.groups(members, z, inBox);
    }
    if (groups.length > MAX_ITEMS) groups = groups.slice(0, MAX_ITEMS);

    const clusters: MapCluster[] = [];
    const points: MapPoint[] = [];
    for (const g of groups) {
      const n = g.members.length;
      if (n === 1) {
        points.push(pointOf(this.features[g.members[0]!]!.properties));
        continue;
      }
      clusters.push({
        id: String(this.entryId(z, g.entry)),
        lat: round6(yLat(g.y / n)),
        lng: round6(xLng(g.x / n)),
        count: n,
        expansionZoom: this.splitZoom(g.members, z),
      });
    }
    return { clusters, points, zoom: z };
  }

  /** The groups at zoom `z` of the services at `members` whose position `inBox` accepts. */
  private groups(members: number[], z: number, inBox: (x: number, y: number) => boolean): Group[] {
    const level = z <= MAX_CLUSTER_ZOOM ? this.level(z) : null;
    const { data, stride } = this.points();
    const byEntry = new Map<number, Group>();
    for (const p of members) {
      const entry = level ? level[p]! : p;
      const x = data[p * stride]!;
      const y = data[p * stride + 1]!;
      const g = byEntry.get(entry);
      if (g) {
        g.x += x;
        g.y += y;
        g.members.push(p);
      } else byEntry.set(entry, { entry, x, y, members: [p] });
    }
    const groups: Group[] = [];
    for (const g of byEntry.values()) {
      const n = g.members.length;
      if (inBox(Math.fround(g.x / n), Math.fround(g.y / n))) groups.push(g);
    }
    return groups;
  }

  /** The zoom above `z` at which the services at `members`, one group at `z`, part. */
  private splitZoom(members: number[], z: number): number {
    for (let zoom = z + 1; zoom <= MAX_CLUSTER_ZOOM; zoom++) {
      const level = this.level(zoom);
      const first = level[members[0]!];
      if (members.some((p) => level[p] !== first)) return zoom;
    }
    return MAX_CLUSTER_ZOOM + 1;
  }

  /** Supercluster's entries of the services themselves (in `features` order). */
  private points(): { data: number[]; stride: number } {
    const trees = this.index as unknown as Trees;
    return { data: trees.trees[MAX_CLUSTER_ZOOM + 1]!.data, stride: trees.stride };
  }

  /** The id supercluster gave the entry at zoom `z`. */
  private entryId(z: number, entry: number): number {
    const trees = this.index as unknown as Trees;
    return trees.trees[z]!.data[entry * trees.stride + OFFSET_ID]!;
  }

  /**
   * Each service's entry (its cluster, or itself) at zoom `z`, read from supercluster's trees on
   * first use, for every zoom at once. At zoom z + 1, an entry that started a cluster at z (or
   * stayed alone) gets the next entry of zoom z in turn, and an entry taken into a cluster gets
   * that cluster's, whose id names the entry that started it.
   */
  private level(z: number): Int32Array {
    if (!this.levels) {
      const { trees, stride } = this.index as unknown as Trees;
      const n = this.size;
      const levels: Int32Array[] = [];
      let below: Int32Array | null = null;
      for (let zoom = MAX_CLUSTER_ZOOM; zoom >= 0; zoom--) {
        const data = trees[zoom + 1]!.data;
        const m = data.length / stride;
        const next = new Int32Array(m);
        let count = 0;
        for (let k = 0; k < m; k++) {
          const parent = data[k * stride + OFFSET_PARENT]!;
          if (parent === -1 || parent === (k << 5) + zoom + 1 + n) next[k] = count++;
          else next[k] = next[(parent - n) >> 5]!;
        }
        if (count * stride !== trees[zoom]!.data.length) {
          throw new Error(`supercluster's trees are not as expected at zoom ${zoom}`);
        }
        const level = new Int32Array(n);
        for (let p = 0; p < n; p++) level[p] = next[below ? below[p]! : p]!;
        levels[zoom] = below = level;
      }
      this.levels = levels;
    }
    return this.levels[z]!;
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

/** What answers a map query: an index, or a view of some of its services (MapIndex.among). */
export interface MapView {
  /** How many services it holds. */
  readonly size: number;
  query(bbox: BBox, zoom: number): MapQueryResult;
}

const pointOf = (s: MapService): MapPoint => ({
  id: s.id,
  name: s.name,
  category: s.category,
  lat: s.lat,
  lng: s.lng,
});

const xLng = (x: number) => (x - 0.5) * 360;
const yLat = (y: number) =>
  (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90;

/**
 * Whether a projected position is in a (wrapped) bbox, as supercluster's range query decides:
 * a box across the antimeridian is its eastern and western parts.
 */
function boxTest(b: BBox): (x: number, y: number) => boolean {
  const top = latY(b.maxLat);
  const bottom = latY(b.minLat);
  const west = lngX(b.minLng);
  const east = lngX(b.maxLng);
  const across = b.minLng > b.maxLng;
  return (x, y) =>
    y >= top && y <= bottom && (across ? x >= west || x <= east : x >= west && x <= east);
}
