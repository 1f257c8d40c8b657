import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResult } from '@poruch/core';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { Random } from '../../seed/random.js';
import { MAX_ITEMS } from '../index.js';
import { around, insertServices, serviceRow, total, viewport } from './helpers.js';

const CENTRES = [
  { lat: 52.23, lng: 21.01 },
  { lat: 50.45, lng: 30.52 },
  { lat: 52.52, lng: 13.4 },
  { lat: 51.51, lng: -0.13 },
  { lat: 48.85, lng: 2.35 },
  { lat: 41.9, lng: 12.5 },
  { lat: 43.65, lng: -79.38 },
  { lat: 40.71, lng: -74.0 },
  { lat: -33.87, lng: 151.21 },
  { lat: 49.84, lng: 24.03 },
];
/** 1 000 services at one spot, as the city-level gazetteer places them. */
const SPOT = { lat: 50.06, lng: 19.94 };
const N = 20_000;

/** No answer holds more than about 500 items, whatever the zoom and the bbox. */
describe('GET /api/v1/map with 20k services', () => {
  let server: TestServer;
  let client: TestClient;
  const map = (query: string) => client.get<MapResult>(`/api/v1/map?${query}`);

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
    client = new TestClient(server.url);
    const random = new Random(42);
    const rows = [
      ...CENTRES.flatMap((c) => around(random, 1_500, c, 0.2)),
      ...Array.from({ length: 4_000 }, () =>
        serviceRow({ lat: random.next() * 130 - 60, lng: random.next() * 360 - 180 }),
      ),
      ...Array.from({ length: 1_000 }, () => serviceRow({ lat: SPOT.lat, lng: SPOT.lng })),
    ];
    expect(rows).toHaveLength(N);
    await insertServices(server.database.db, rows);
  }, 120_000);
  afterAll(() => server?.close());

  it('holds at most 500 items at every zoom from 0 to 18', async () => {
    for (let zoom = 0; zoom <= 18; zoom++) {
      for (const c of [CENTRES[0]!, CENTRES[3]!, SPOT]) {
        for (const [w, h] of [
          [1920, 1080],
          [3840, 2160],
        ]) {
          const res = await map(`bbox=${viewport(c.lat, c.lng, zoom, w, h)}&zoom=${zoom}`);
          expect(res.status).toBe(200);
          const items = res.body.clusters.length + res.body.points.length;
          expect(items, `zoom ${zoom} at ${c.lat},${c.lng}`).toBeLessThanOrEqual(MAX_ITEMS);
        }
      }
      // The whole world at every zoom, even where no screen could show it.
      const world = await map(`bbox=-180,-85,180,85&zoom=${zoom}`);
      expect(world.body.clusters.length + world.body.points.length).toBeLessThanOrEqual(MAX_ITEMS);
      expect(total(world.body)).toBe(N);
      expect(Number(world.headers.get('x-map-zoom'))).toBeLessThanOrEqual(zoom);
    }
  });

  it('keeps services at one spot as one cluster that cannot expand further', async () => {
    const res = await map(`bbox=${viewport(SPOT.lat, SPOT.lng, 18, 400, 400)}&zoom=18`);
    expect(res.body.points).toEqual([]);
    expect(res.body.clusters).toHaveLength(1);
    expect(res.body.clusters[0]!.count).toBe(1_000);
    expect(res.body.clusters[0]!.expansionZoom).toBe(17);
  });

  it('answers points, not clusters, at high zoom where they fit', async () => {
    const c = CENTRES[1]!;
    const res = await map(`bbox=${viewport(c.lat, c.lng, 17)}&zoom=17`);
    expect(res.headers.get('x-map-zoom')).toBe('17');
    expect(res.body.clusters).toEqual([]);
    expect(res.body.points.length).toBeGreaterThan(0);
  });
});
