import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResult } from '@poruch/core';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { Random } from '../../seed/random.js';
import { eq } from 'drizzle-orm';
import { services } from '../../db/schema.js';
import { MapCache, bumpMapVersion, invalidateMap } from '../index.js';
import { around, bboxAround, insertServices, serviceRow, total } from './helpers.js';

const WORLD = '-180,-85,180,85';

/** Cities far enough apart to be separate clusters at zoom 3. */
const CITIES = {
  warsaw: { lat: 52.23, lng: 21.01 },
  lisbon: { lat: 38.72, lng: -9.14 },
  toronto: { lat: 43.65, lng: -79.38 },
  sydney: { lat: -33.87, lng: 151.21 },
};

describe('GET /api/v1/map', () => {
  let server: TestServer;
  let client: TestClient;
  /** Every service that must be visible, by id. */
  const visible = new Map<
    string,
    { countryCode: string; category: string | null; online: boolean }
  >();
  let hiddenIds: string[] = [];

  const map = (query: string) => client.get<MapResult>(`/api/v1/map?${query}`);

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
    client = new TestClient(server.url);
    const db = server.database.db;
    const random = new Random(7);

    const groups = [
      around(random, 40, CITIES.warsaw, 0.003, { countryCode: 'PL', category: 'food' }),
      around(random, 30, CITIES.lisbon, 0.003, { countryCode: 'PT', category: 'it' }),
      around(random, 20, CITIES.toronto, 0.003, { countryCode: 'CA', category: null }),
      around(random, 10, CITIES.sydney, 0.003, {
        countryCode: 'AU',
        category: 'food',
        isOnline: true,
      }),
      // Either side of the antimeridian: Fiji and Samoa.
      [serviceRow({ name: 'Fiji', countryCode: 'FJ', lat: -17.7, lng: 178.1 })],
      [serviceRow({ name: 'Samoa', countryCode: 'WS', lat: -13.8, lng: -171.8 })],
    ];
    for (const rows of groups) {
      const ids = await insertServices(db, rows);
      ids.forEach((id, i) =>
        visible.set(id, {
          countryCode: rows[i]!.countryCode,
          category: rows[i]!.category ?? null,
          online: rows[i]!.isOnline ?? false,
        }),
      );
    }
    // At the same places, services the map must never show.
    hiddenIds = await insertServices(db, [
      ...around(random, 5, CITIES.warsaw, 0.003, { status: 'pending', name: 'Pending' }),
      ...around(random, 5, CITIES.warsaw, 0.003, { status: 'declined', name: 'Declined' }),
      ...around(random, 5, CITIES.warsaw, 0.003, { showOnMap: false, name: 'Hidden' }),
      serviceRow({ name: 'No position', lat: null, lng: null }),
      serviceRow({ name: 'No latitude', lat: null }),
      serviceRow({ name: 'Online, no position', lat: null, lng: null, isOnline: true }),
    ]);
  });
  afterAll(() => server?.close());

  /** Every point id in the world at a zoom where nothing is clustered, split into small boxes. */
  async function allPointIds(filter = ''): Promise<string[]> {
    const ids: string[] = [];
    for (const { lat, lng } of [
      ...Object.values(CITIES),
      { lat: -17.7, lng: 178.1 },
      { lat: -13.8, lng: -171.8 },
    ]) {
      const res = await map(`bbox=${bboxAround(lat, lng, 0.02)}&zoom=17${filter}`);
      expect(res.status).toBe(200);
      expect(res.body.clusters).toEqual([]);
      ids.push(...res.body.points.map((p) => p.id));
    }
    return ids;
  }

  it('shows only approved services shown on the map with a position', async () => {
    const ids = await allPointIds();
    expect(new Set(ids)).toEqual(new Set(visible.keys()));
    for (const id of hiddenIds) expect(ids).not.toContain(id);
    const world = await map(`bbox=${WORLD}&zoom=0`);
    expect(total(world.body)).toBe(visible.size);
  });

  it('gives points their id, name, category and position', async () => {
    const res = await map(`bbox=${bboxAround(CITIES.lisbon.lat, CITIES.lisbon.lng, 0.02)}&zoom=18`);
    expect(res.body.points).toHaveLength(30);
    const p = res.body.points[0]!;
    expect(Object.keys(p).sort()).toEqual(['category', 'id', 'lat', 'lng', 'name']);
    expect(p.category).toBe('it');
    expect(p.name).toMatch(/^Service \d+$/);
  });

  it('clusters at low zoom, and the counts add up to the visible services in the bbox', async () => {
    const res = await map(`bbox=${WORLD}&zoom=3`);
    expect(res.status).toBe(200);
    const counts = res.body.clusters.map((c) => c.count).sort((a, b) => a - b);
    expect(counts).toEqual([10, 20, 30, 40]);
    expect(total(res.body)).toBe(visible.size);
    // Europe only: Warsaw and Lisbon.
    const europe = await map('bbox=-20,30,40,60&zoom=3');
    expect(total(europe.body)).toBe(70);
  });

  it('gives each cluster the zoom at which it breaks apart', async () => {
    const res = await map(`bbox=${WORLD}&zoom=3`);
    for (const cluster of res.body.clusters) {
      const z = cluster.expansionZoom;
      expect(z).toBeGreaterThan(3);
      const box = bboxAround(cluster.lat, cluster.lng, 0.03);
      const before = await map(`bbox=${box}&zoom=${z - 1}`);
      expect(before.body.points).toEqual([]);
      expect(before.body.clusters.map((c) => c.count)).toEqual([cluster.count]);
      const after = await map(`bbox=${box}&zoom=${z}`);
      expect(after.body.clusters.length + after.body.points.length).toBeGreaterThan(1);
      expect(total(after.body)).toBe(cluster.count);
    }
  });

  it('filters by country, category (a key, all, empty) and online', async () => {
    const expectIds = async (
      filter: string,
      pick: (v: { countryCode: string; category: string | null; online: boolean }) => boolean,
    ) => {
      const want = [...visible].filter(([, v]) => pick(v)).map(([id]) => id);
      expect(new Set(await allPointIds(filter))).toEqual(new Set(want));
      expect(total((await map(`bbox=${WORLD}&zoom=2${filter}`)).body)).toBe(want.length);
    };
    await expectIds('&country=PT', (v) => v.countryCode === 'PT');
    await expectIds('&category=food', (v) => v.category === 'food');
    await expectIds('&category=all', () => true);
    await expectIds('&category=empty', (v) => v.category === null);
    await expectIds('&online=true', (v) => v.online);
    await expectIds('&online=false', (v) => !v.online);
    await expectIds('&country=AU&category=food&online=1', (v) => v.countryCode === 'AU');
    await expectIds('&country=AU&category=it', () => false);
  });

  it('answers a bbox crossing the antimeridian or wider than the world', async () => {
    const crossing = await map('bbox=170,-30,-165,0&zoom=8');
    expect(crossing.status).toBe(200);
    expect(crossing.body.points.map((p) => p.name).sort()).toEqual(['Fiji', 'Samoa']);
    // Leaflet's wrapped longitudes: the same place one world to the east.
    const wrapped = await map('bbox=530,-30,555,0&zoom=8');
    expect(wrapped.status).toBe(200);
    expect(wrapped.body.points.map((p) => p.name).sort()).toEqual(['Fiji', 'Samoa']);
    const wide = await map('bbox=-540,-95,540,95&zoom=1');
    expect(wide.status).toBe(200);
    expect(total(wide.body)).toBe(visible.size);
  });

  it('refuses a bad bbox or zoom with validation_failed', async () => {
    for (const query of [
      'bbox=abc&zoom=3',
      'bbox=1,2,3&zoom=3',
      'bbox=1,2,3,4,5&zoom=3',
      'bbox=0,10,10,5&zoom=3',
      'bbox=0,0,10,NaN&zoom=3',
      `bbox=${WORLD}&zoom=23`,
      `bbox=${WORLD}&zoom=-1`,
      `bbox=${WORLD}&zoom=x`,
      `bbox=${WORLD}&zoom=2.5`,
      `bbox=${WORLD}`,
      'zoom=3',
      `bbox=${WORLD}&zoom=3&category=nope`,
      `bbox=${WORLD}&zoom=3&online=maybe`,
      `bbox=${WORLD}&zoom=3&extra=1`,
    ]) {
      const res = await client.get(`/api/v1/map?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errors.message, query).toBe('validation_failed');
    }
  });

  it('answers any origin without credentials', async () => {
    const res = await client.get(`/api/v1/map?bbox=${WORLD}&zoom=2`, {
      headers: { origin: 'https://diaspora.example.net' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('carries an ETag and answers 304 while nothing changed', async () => {
    const first = await map(`bbox=${WORLD}&zoom=2`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toContain('s-maxage');
    const again = await client.get(`/api/v1/map?bbox=${WORLD}&zoom=2`, {
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
  });

  it('shows a new approved service at once after invalidateMap', async () => {
    const before = await map(`bbox=${WORLD}&zoom=0`);
    const [id] = await insertServices(server.database.db, [
      serviceRow({ name: 'Новий', countryCode: 'DE', lat: 52.52, lng: 13.4 }),
    ]);
    await invalidateMap(server.app);
    const after = await map(`bbox=${WORLD}&zoom=0`);
    expect(total(after.body)).toBe(total(before.body) + 1);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const berlin = await map(`bbox=${bboxAround(52.52, 13.4, 0.02)}&zoom=17`);
    expect(berlin.body.points.map((p) => p.id)).toEqual([id]);
    visible.set(id!, { countryCode: 'DE', category: 'food', online: false });
  });

  it('notices a write made through another instance within the staleness bound', async () => {
    const before = total((await map(`bbox=${WORLD}&zoom=0`)).body);
    // What another server process does: write, then bump the shared version (its invalidateMap);
    // this instance's cache is not told.
    const [id] = await insertServices(server.database.db, [
      serviceRow({ name: 'Elsewhere', countryCode: 'FR', lat: 48.85, lng: 2.35 }),
    ]);
    await bumpMapVersion(server.database.db);
    // A check at most once a second, then one reload in the background (how long it takes in all
    // is a figure of the map bench).
    await expect
      .poll(async () => total((await map(`bbox=${WORLD}&zoom=0`)).body), {
        timeout: 5000,
        interval: 100,
      })
      .toBe(before + 1);
    visible.set(id!, { countryCode: 'FR', category: 'food', online: false });
  });

  it('notices a write that bypassed invalidateMap at the next full check', async () => {
    const db = server.database.db;
    const cache = new MapCache(db, { checkIntervalMs: 50, fullCheckIntervalMs: 300 });
    try {
      const count = async () =>
        (await cache.get({})).index.query(
          { minLng: -180, minLat: -85, maxLng: 180, maxLat: 85 },
          0,
        );
      const before = total(await count());
      // Straight SQL: no version bump. The count and latest updated_at give it away.
      await db
        .update(services)
        .set({ showOnMap: false, updatedAt: new Date() })
        .where(eq(services.name, 'Fiji'));
      await expect
        .poll(async () => total(await count()), { timeout: 5000, interval: 50 })
        .toBe(before - 1);
    } finally {
      await cache.close();
    }
  });
});
