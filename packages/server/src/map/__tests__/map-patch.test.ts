import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { services } from '../../db/schema.js';
import {
  MapCache,
  bumpMapVersion,
  invalidateMap,
  mapCacheOf,
  readVersionToken,
  type MapFilter,
} from '../index.js';
import { insertServices, serviceRow, total } from './helpers.js';

const WORLD = { minLng: -180, minLat: -85, maxLng: 180, maxLat: 85 };

/**
 * invalidateMap with one service's change: no reload of every row, no rebuild of indexes
 * the change cannot touch, no invalidation at all when the map cannot change, and still every
 * request after the write sees it.
 */
describe('map: one service changed on this instance', () => {
  let server: TestServer;
  let cache: MapCache;

  const row = async (id: string) =>
    (await server.database.db.select().from(services).where(eq(services.id, id)))[0]!;
  const count = async (filter: MapFilter = {}) =>
    total((await cache.get(filter)).index.query(WORLD, 0));
  const indexOf = async (filter: MapFilter = {}) => (await cache.get(filter)).index;

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
    await insertServices(server.database.db, [
      serviceRow({ name: 'Warsaw', countryCode: 'PL', lat: 52.23, lng: 21.01 }),
      serviceRow({ name: 'Lisbon', countryCode: 'PT', lat: 38.72, lng: -9.14, category: 'it' }),
    ]);
    cache = mapCacheOf(server.app);
  });
  afterAll(() => server?.close());

  it('does nothing when a service is and stays off the map (an edit of a pending one)', async () => {
    const [id] = await insertServices(server.database.db, [serviceRow({ status: 'pending' })]);
    const index = await indexOf();
    const token = await readVersionToken(server.database.db);
    const before = await row(id!);
    await server.database.db
      .update(services)
      .set({ name: 'Pending, renamed', updatedAt: new Date() })
      .where(eq(services.id, id!));
    await invalidateMap(server.app, { id: id!, before });
    expect(await readVersionToken(server.database.db)).toBe(token);
    expect(await indexOf()).toBe(index);
  });

  it('does nothing when nothing the map shows changed', async () => {
    const [id] = await insertServices(server.database.db, [serviceRow({ name: 'Same' })]);
    await invalidateMap(server.app, { id: id! });
    const index = await indexOf();
    const token = await readVersionToken(server.database.db);
    const before = await row(id!);
    await server.database.db
      .update(services)
      .set({ phone: '+48 123 456 789', updatedAt: new Date() })
      .where(eq(services.id, id!));
    await invalidateMap(server.app, { id: id!, before });
    expect(await readVersionToken(server.database.db)).toBe(token);
    expect(await indexOf()).toBe(index);
  });

  it('announces a change without a before row, but keeps the indexes when nothing moved', async () => {
    const [id] = await insertServices(server.database.db, [serviceRow({ name: 'Twice' })]);
    await invalidateMap(server.app, { id: id! });
    const { index, version } = await cache.get({});
    const token = await readVersionToken(server.database.db);
    // An admin approving an approved service again: the route does not read the row first.
    await invalidateMap(server.app, { id: id! });
    expect(await readVersionToken(server.database.db)).not.toBe(token);
    const now = await cache.get({});
    expect(now.index).toBe(index);
    expect(now.version).not.toBe(version);
  });

  it('patches in an approval at once, rebuilding only the indexes that hold the service', async () => {
    const all = await count();
    const pl = await count({ country: 'PL' });
    const pt = await indexOf({ country: 'PT' });
    const ptVersion = (await cache.get({ country: 'PT' })).version;
    const [id] = await insertServices(server.database.db, [
      serviceRow({ name: 'Pending', countryCode: 'PL', status: 'pending', lat: 50.06, lng: 19.94 }),
    ]);
    const before = await row(id!);
    await server.database.db
      .update(services)
      .set({ status: 'approved', updatedAt: new Date() })
      .where(eq(services.id, id!));
    await invalidateMap(server.app, { id: id!, before });
    // Asked at once, before the background rebuild has run: the readers build what they need.
    expect(await count()).toBe(all + 1);
    expect(await count({ country: 'PL' })).toBe(pl + 1);
    // The Portuguese index cannot hold a Polish service: kept, under the new version (ETag).
    const ptNow = await cache.get({ country: 'PT' });
    expect(ptNow.index).toBe(pt);
    expect(ptNow.version).not.toBe(ptVersion);
    expect(ptNow.version).toBe(cache.version);
  });

  it('moves, hides and deletes at once', async () => {
    const [id] = await insertServices(server.database.db, [
      serviceRow({ name: 'Mover', countryCode: 'DE', lat: 52.52, lng: 13.4 }),
    ]);
    await invalidateMap(server.app, { id: id!, before: null });
    const all = await count();
    const de = async () => (await cache.get({ country: 'DE' })).index.query(WORLD, 17).points;
    expect((await de()).map((p) => p.id)).toContain(id);

    let before = await row(id!);
    await server.database.db
      .update(services)
      .set({ lat: 48.14, lng: 11.58, updatedAt: new Date() })
      .where(eq(services.id, id!));
    await invalidateMap(server.app, { id: id!, before });
    expect((await de()).find((p) => p.id === id)).toMatchObject({ lat: 48.14, lng: 11.58 });
    expect(await count()).toBe(all);

    before = await row(id!);
    await server.database.db
      .update(services)
      .set({ showOnMap: false, updatedAt: new Date() })
      .where(eq(services.id, id!));
    await invalidateMap(server.app, { id: id!, before });
    expect(await count()).toBe(all - 1);
    expect((await de()).map((p) => p.id)).not.toContain(id);

    before = await row(id!);
    await server.database.db.delete(services).where(eq(services.id, id!));
    await invalidateMap(server.app, { id: id!, before });
    expect(await count()).toBe(all - 1);
  });

  it('rebuilds the dropped indexes after the write, off the readers’ path', async () => {
    await indexOf({ country: 'PL' });
    const index = await indexOf();
    const [id] = await insertServices(server.database.db, [
      serviceRow({ name: 'Background', countryCode: 'PL', lat: 50.45, lng: 30.52 }),
    ]);
    await invalidateMap(server.app, { id: id!, before: null });
    await new Promise((r) => setImmediate(r));
    // Built by the background job: the next reader finds it current, with the service.
    const rebuilt = (cache as unknown as { entries: Map<string, { version: string }> }).entries;
    expect(rebuilt.get('*|all|*')?.version).toBe(cache.version);
    expect(rebuilt.get('PL|all|*')?.version).toBe(cache.version);
    expect(await indexOf()).not.toBe(index);
  });

  it('keeps its indexes when a reload finds the same services', async () => {
    const own = new MapCache(server.database.db, { checkIntervalMs: 20 });
    try {
      const index = (await own.get({})).index;
      const version = own.version;
      // Another instance's bump that changed nothing on the map.
      await bumpMapVersion(server.database.db);
      await expect
        .poll(
          async () => {
            await own.get({});
            return own.version;
          },
          { timeout: 5000, interval: 30 },
        )
        .not.toBe(version);
      expect((await own.get({})).index).toBe(index);
    } finally {
      await own.close();
    }
  });
});
