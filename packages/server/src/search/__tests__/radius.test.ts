import { serviceSearchQuerySchema, type ServiceSearchQuery } from '@poruch/core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { longitudeReach } from '../geo.js';
import { searchServices } from '../index.js';
import { searchTestDatabase } from './testDatabase.js';

const R = 6371.0088;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `km` away from (lat, lng) on the initial bearing `bearing` (degrees). */
function destination(lat: number, lng: number, bearing: number, km: number): [number, number] {
  const d = km / R;
  const φ1 = rad(lat);
  const φ2 = Math.asin(
    Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(rad(bearing)),
  );
  const λ2 =
    rad(lng) +
    Math.atan2(
      Math.sin(rad(bearing)) * Math.sin(d) * Math.cos(φ1),
      Math.cos(d) - Math.sin(φ1) * Math.sin(φ2),
    );
  return [deg(φ2), ((deg(λ2) + 540) % 360) - 180];
}

/** Great-circle distance in km by the haversine, in JavaScript: the reference for the database. */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Centres: mid-latitude, far north (a narrow circle in longitude), by the antimeridian, by the pole. */
const CENTRES: [string, number, number][] = [
  ['oslo', 59.9139, 10.7522],
  ['north', 78.2232, 15.6267],
  ['fiji', -17.7134, 179.95],
  ['pole', 89.7, 40],
];
const BEARINGS = [0, 45, 90, 135, 180, 225, 270, 315];

const t = searchTestDatabase({
  cacheOff: true,
  setup: async (db) => {
    // Around each centre, on 8 bearings: 49.9 km (inside 50 km) and 50.1 km (outside).
    for (const [name, lat, lng] of CENTRES) {
      for (const b of BEARINGS) {
        for (const km of [49.9, 50.1]) {
          const [pLat, pLng] = destination(lat, lng, b, km);
          await db.execute(sql`INSERT INTO services (name, country_code, status, lat, lng)
            VALUES (${`${name} ${b} ${km}`}, 'NO', 'approved', ${pLat}, ${pLng})`);
        }
      }
    }
  },
});

const search = (query: Record<string, string | number>) =>
  searchServices(t.db, serviceSearchQuerySchema.parse(query) as ServiceSearchQuery);

describe('near + radiusKm: the bounding box never drops a point of the circle', () => {
  it.each(CENTRES)(
    'around %s: every point within 50 km and none beyond',
    async (name, lat, lng) => {
      for (const sort of ['distance', 'newest'] as const) {
        const page = await search({ near: `${lat},${lng}`, radiusKm: 50, sort, pageSize: 100 });
        expect(page.items.map((i) => i.name).sort(), sort).toEqual(
          BEARINGS.map((b) => `${name} ${b} 49.9`).sort(),
        );
        expect(page.total).toBe(BEARINGS.length);
      }
    },
  );

  it('reaches further in longitude the further from the equator, and not at all by a pole', () => {
    expect(longitudeReach(0, 111.2)).toBeCloseTo(1, 2);
    expect(longitudeReach(60, 111.2)).toBeCloseTo(2, 1);
    expect(longitudeReach(89.7, 50)).toBeUndefined();
    expect(longitudeReach(0, 15_000)).toBeUndefined();
  });
});

describe('near: the distances the database measures', () => {
  it.each(CENTRES)(
    'around %s: agree with the haversine, nearest first, across the antimeridian and the pole',
    async (name, lat, lng) => {
      const page = await search({ near: `${lat},${lng}`, sort: 'distance', pageSize: 100 });
      expect(page.total).toBe(CENTRES.length * BEARINGS.length * 2);
      const distances = page.items.map((i) => i.distanceKm!);
      page.items.forEach((item, k) =>
        expect(distances[k]).toBeCloseTo(haversineKm(lat, lng, item.lat!, item.lng!), 6),
      );
      expect(distances).toEqual([...distances].sort((x, y) => x - y));
      // This centre's own points first: those at 49.9 km, then those at 50.1 km.
      const names = page.items.map((i) => i.name);
      expect(names.slice(0, 8).sort()).toEqual(BEARINGS.map((b) => `${name} ${b} 49.9`).sort());
      expect(names.slice(8, 16).sort()).toEqual(BEARINGS.map((b) => `${name} ${b} 50.1`).sort());
      expect(distances[0]).toBeCloseTo(49.9, 6);
      expect(distances[15]).toBeCloseTo(50.1, 6);
    },
  );
});
