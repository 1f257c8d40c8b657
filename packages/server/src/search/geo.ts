import type { BBox } from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
import { services } from '../db/schema.js';

/**
 * Geo math of the search and the map: great-circle distances (the haversine, computed by the
 * database in each statement), the circle's bounding box for the lat/lng index, and the wrapping
 * of a map's box into [-180, 180]. docs/architecture.md § Geo math says why not earthdistance.
 */

/** The mean Earth radius (IUGG) in km, which every distance we show is measured on. */
const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

/** A position as SQL: a service's columns, or the columns of a row set. */
export interface At {
  lat: SQL;
  lng: SQL;
}

const servicePosition: At = { lat: sql`${services.lat}`, lng: sql`${services.lng}` };

/** Great-circle distance in km from a point to a position (a service's by default), by the haversine. */
export function distanceFrom(near: { lat: number; lng: number }, at: At = servicePosition): SQL {
  const lat = sql`${near.lat}::float8`;
  const lng = sql`${near.lng}::float8`;
  return sql`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
      power(sin(radians(${at.lat} - ${lat}) / 2), 2)
      + cos(radians(${lat})) * cos(radians(${at.lat}))
        * power(sin(radians(${at.lng} - ${lng}) / 2), 2)))))`;
}

/**
 * How far in longitude (degrees) a circle of `radiusKm` around a point at `lat` reaches: the
 * exact extent of a spherical cap, asin(sin(r/R) / cos(lat)). Undefined when the circle holds a
 * pole (every longitude is in reach).
 */
export function longitudeReach(lat: number, radiusKm: number): number | undefined {
  const dLat = radiusKm / KM_PER_DEGREE;
  const ratio = Math.sin(radiusKm / EARTH_RADIUS_KM) / Math.cos((lat * Math.PI) / 180);
  if (Math.abs(lat) + dLat >= 90 || !(ratio < 1)) return undefined;
  // A hair wider than exact, so rounding never drops a point on the circle.
  return (Math.asin(ratio) * 180) / Math.PI + 1e-9;
}

/**
 * The services within `radiusKm` of `near`: the circle's bounding box first (the lat/lng index
 * serves it; its longitudes only when it neither holds a pole nor crosses the antimeridian),
 * then the exact distance.
 */
export function withinRadius(near: { lat: number; lng: number }, radiusKm: number): SQL {
  const dLat = radiusKm / KM_PER_DEGREE;
  const dLng = longitudeReach(near.lat, radiusKm);
  const lngBand =
    dLng !== undefined && near.lng - dLng >= -180 && near.lng + dLng <= 180
      ? sql` AND ${services.lng} BETWEEN ${near.lng - dLng} AND ${near.lng + dLng}`
      : sql``;
  return sql`${services.lat} BETWEEN ${near.lat - dLat} AND ${near.lat + dLat}${lngBand}
    AND ${distanceFrom(near)} <= ${radiusKm}`;
}

/** The services inside a box; one across the antimeridian has minLng > maxLng. */
export function insideBox(box: BBox): SQL {
  return sql`${services.lat} BETWEEN ${box.minLat} AND ${box.maxLat} AND ${
    box.minLng <= box.maxLng
      ? sql`${services.lng} BETWEEN ${box.minLng} AND ${box.maxLng}`
      : sql`(${services.lng} >= ${box.minLng} OR ${services.lng} <= ${box.maxLng})`
  }`;
}

/**
 * A map's box in the ranges the rest of the code takes: longitudes wrapped into [-180, 180] (a
 * box across the antimeridian keeps minLng > maxLng), one spanning 360° or more becomes the whole
 * world, and latitudes are clamped to ±90. Leaflet gives longitudes beyond ±180 once the world
 * has wrapped.
 */
export function wrapBBox(b: BBox): BBox {
  const minLat = Math.max(-90, Math.min(90, b.minLat));
  const maxLat = Math.max(-90, Math.min(90, b.maxLat));
  if (b.maxLng - b.minLng >= 360) return { minLng: -180, minLat, maxLng: 180, maxLat };
  const wrap = (lng: number) =>
    lng >= -180 && lng <= 180 ? lng : ((((lng + 180) % 360) + 360) % 360) - 180;
  return { minLng: wrap(b.minLng), minLat, maxLng: wrap(b.maxLng), maxLat };
}

/**
 * `wrapBBox` over a `minLng,minLat,maxLng,maxLat` parameter, before validation, so a box across
 * the antimeridian or wider than the world is answered instead of refused. Anything that is not
 * four finite numbers with minLat ≤ maxLat and some latitude on the globe is left for the schema
 * to refuse.
 */
export function wrapBBoxParam(raw: string): string {
  const parts = raw.split(',').map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return raw;
  const [minLng, minLat, maxLng, maxLat] = parts as [number, number, number, number];
  if (minLat > maxLat || minLat > 90 || maxLat < -90) return raw;
  const b = wrapBBox({ minLng, minLat, maxLng, maxLat });
  return `${b.minLng},${b.minLat},${b.maxLng},${b.maxLat}`;
}
