/**
 * A small static map of one place: the map tiles around it when they load, over the offline base
 * layer of @poruch/widgets (the country shapes the interactive map draws when tiles cannot
 * load), and a marker at its centre. One SVG, a picture and not a control: a text alternative
 * (`label`), no focusable part. Loaded lazily by ProfileLocation when it comes near the screen.
 * The shapes are decoded and projected in slices of a few milliseconds (inSlices), so drawing the
 * map never blocks the page in one long task; the sea shows until they are drawn.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  BASE_LAYER_SEA,
  BASE_LAYER_STYLE,
  baseCountryFeatures,
  type BaseCountry,
  type LatLng,
} from '@poruch/widgets';
import { inSlices } from '../../ui/yieldToMain.js';

/** Regional context: the country and its neighbours around the place. */
export const STATIC_MAP_ZOOM = 5;
const TILE = 256;
/**
 * The picture's box in map pixels. Drawn with `slice` into a box of the page's own size (CSS):
 * a narrower box shows its middle, where the marker is, at the same scale.
 */
const WIDTH = 960;
const HEIGHT = 192;
const WORLD_SIZE = TILE * 2 ** STATIC_MAP_ZOOM;
const MAX_LAT = 85.0511287798;

/** Web Mercator, in pixels of the whole world at STATIC_MAP_ZOOM. */
function project(lng: number, lat: number): [number, number] {
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return [
    ((lng + 180) / 360) * WORLD_SIZE,
    ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * WORLD_SIZE,
  ];
}

interface Ring {
  points: [number, number][];
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** A polygon of the base layer (outer ring, then holes) with its outer ring's bounds. */
interface Polygon {
  rings: number[][][];
  west: number;
  east: number;
  south: number;
  north: number;
}

let polygons: Polygon[] | undefined;
/** Every polygon of the base layer with its bounds in degrees, found once: a step per country. */
function* basePolygons(): Generator<void, Polygon[]> {
  if (polygons) return polygons;
  const found: Polygon[] = [];
  for (const f of baseCountryFeatures() as Iterable<BaseCountry>) {
    for (const rings of f.geometry.type === 'Polygon'
      ? [f.geometry.coordinates]
      : f.geometry.coordinates) {
      let [west, east, south, north] = [180, -180, 90, -90];
      for (const [lng, lat] of rings[0]!) {
        if (lng! < west) west = lng!;
        if (lng! > east) east = lng!;
        if (lat! < south) south = lat!;
        if (lat! > north) north = lat!;
      }
      found.push({ rings, west, east, south, north });
    }
    yield;
  }
  polygons = found;
  return found;
}

const projected = new WeakMap<Polygon, Ring[]>();
/** A polygon's rings in map pixels, projected when first drawn (only those near a map are). */
function projectedRings(polygon: Polygon): Ring[] {
  let rings = projected.get(polygon);
  if (!rings) {
    rings = polygon.rings.map((ring) => {
      const points = ring.map(([lng, lat]) => project(lng!, lat!));
      const xs = points.map((p) => p[0]);
      const ys = points.map((p) => p[1]);
      return {
        points,
        minX: Math.min(...xs),
        maxX: Math.max(...xs),
        minY: Math.min(...ys),
        maxY: Math.max(...ys),
      };
    });
    projected.set(polygon, rings);
  }
  return rings;
}

/** The latitude of a map pixel row (the inverse of project's y). */
function latitudeOf(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / WORLD_SIZE))) * 180) / Math.PI;
}

/**
 * The SVG path of the base layer's shapes in the box whose top left corner is (left, top),
 * with the world's copies east and west of it (a place near the date line): a step per shape
 * projected, for inSlices.
 */
function* basePath(left: number, top: number): Generator<void, string> {
  const all = yield* basePolygons();
  const parts: string[] = [];
  for (const shift of [-WORLD_SIZE, 0, WORLD_SIZE]) {
    const x0 = left + shift;
    const west = (x0 / WORLD_SIZE) * 360 - 180;
    const east = ((x0 + WIDTH) / WORLD_SIZE) * 360 - 180;
    const north = latitudeOf(top);
    const south = latitudeOf(top + HEIGHT);
    for (const polygon of all) {
      // Far from the box in degrees: not projected at all.
      if (polygon.east < west || polygon.west > east) continue;
      if (polygon.north < south || polygon.south > north) continue;
      const fresh = !projected.has(polygon);
      const rings = projectedRings(polygon);
      if (fresh) yield;
      const outer = rings[0]!;
      if (
        outer.maxX < x0 ||
        outer.minX > x0 + WIDTH ||
        outer.maxY < top ||
        outer.minY > top + HEIGHT
      ) {
        continue;
      }
      for (const ring of rings) {
        parts.push(
          `M${ring.points.map(([x, y]) => `${(x - x0).toFixed(1)} ${(y - top).toFixed(1)}`).join('L')}Z`,
        );
      }
    }
  }
  return parts.join('');
}

/** The tiles covering the box, from an http(s) template with `{z}`, `{x}`, `{y}` (`{s}`, `{r}`). */
function tilesOf(template: string | undefined, left: number, top: number) {
  if (!template || !/^https?:\/\//i.test(template)) return [];
  const count = 2 ** STATIC_MAP_ZOOM;
  const tiles: { key: string; href: string; x: number; y: number }[] = [];
  for (let ty = Math.floor(top / TILE); ty * TILE < top + HEIGHT; ty++) {
    if (ty < 0 || ty >= count) continue;
    for (let tx = Math.floor(left / TILE); tx * TILE < left + WIDTH; tx++) {
      const x = ((tx % count) + count) % count;
      const href = template
        .replace('{s}', 'a')
        .replace('{r}', '')
        .replace('{z}', String(STATIC_MAP_ZOOM))
        .replace('{x}', String(x))
        .replace('{y}', String(ty));
      tiles.push({ key: `${tx}/${ty}`, href, x: tx * TILE - left, y: ty * TILE - top });
    }
  }
  return tiles;
}

export interface StaticMapProps {
  at: LatLng;
  /** The text alternative: what the picture shows. */
  label: string;
  /** The tile URL template (`/env`'s `tileUrl`); none or `none` for the base layer only. */
  tileUrl: string | undefined;
  /** The tiles' attribution, shown once a tile has loaded. */
  attribution: string;
}

export default function StaticMap({ at, label, tileUrl, attribution }: StaticMapProps) {
  const [cx, cy] = project(at.lng, at.lat);
  const left = cx - WIDTH / 2;
  const top = cy - HEIGHT / 2;
  const [base, setBase] = useState<string>();
  useEffect(() => {
    const drawing = new AbortController();
    void inSlices(basePath(left, top), drawing.signal).then((path) => {
      if (path !== undefined) setBase(path);
    });
    return () => drawing.abort();
  }, [left, top]);
  const tiles = useMemo(() => tilesOf(tileUrl, left, top), [tileUrl, left, top]);
  // Tiles are loaded first as images and drawn once they have loaded (from the browser's cache):
  // one that cannot load is never drawn, and the base layer shows there.
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const images = tiles.map((tile) => {
      const image = new Image();
      image.onload = () => setLoaded((done) => new Set(done).add(tile.href));
      image.src = tile.href;
      return image;
    });
    return () => {
      for (const image of images) image.onload = null;
    };
  }, [tiles]);
  const shown = tiles.filter((tile) => loaded.has(tile.href));
  return (
    <>
      <svg
        className="static-map"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="xMidYMid slice"
        role="img"
        aria-label={label}
        focusable="false"
        data-zoom={STATIC_MAP_ZOOM}
      >
        <rect width={WIDTH} height={HEIGHT} fill={BASE_LAYER_SEA} />
        {base !== undefined && (
          <path
            className="static-map__base"
            d={base}
            fill={BASE_LAYER_STYLE.fillColor}
            stroke={BASE_LAYER_STYLE.color}
            strokeWidth={BASE_LAYER_STYLE.weight}
            strokeLinejoin="round"
            fillRule="evenodd"
          />
        )}
        {shown.map((tile) => (
          <image key={tile.key} href={tile.href} x={tile.x} y={tile.y} width={TILE} height={TILE} />
        ))}
        <g className="static-map__marker" transform={`translate(${WIDTH / 2} ${HEIGHT / 2})`}>
          <path
            d="M0 0C-2-7-11-12-11-21A11 11 0 1 1 11-21C11-12 2-7 0 0Z"
            fill="currentColor"
            stroke="#fff"
            strokeWidth="2"
          />
          <circle cy="-21" r="4.5" fill="#fff" />
        </g>
      </svg>
      {shown.length > 0 && <p className="profile-location__attribution">{attribution}</p>}
    </>
  );
}
