import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import { bumpMapVersion, MapCache, readServices, sameService } from './MapCache.js';
import type { MapService } from './MapIndex.js';
import { isPubliclyVisible } from '../search/visibility.js';

export {
  MapCache,
  bumpMapVersion,
  filterKey,
  readServices,
  readVersion,
  readVersionToken,
  sameService,
  setMatchesFromIndex,
} from './MapCache.js';
export type { MapCacheOptions, MapFilter } from './MapCache.js';
export { MAP_TEXT_LIMIT, textMatches } from './textMatches.js';
export { MapIndex, MAX_CLUSTER_ZOOM, MAX_ITEMS, fitZoom, toFeature } from './MapIndex.js';
export type { MapFeature, MapQueryResult, MapService, MapView } from './MapIndex.js';

/**
 * The map cache of each open database. Keyed by the database rather than decorated on the app,
 * so route handlers in any plugin context reach the same cache.
 */
const caches = new WeakMap<Db, MapCache>();

/** The map cache of the app's database, created on first use. */
export function mapCacheOf(app: Pick<FastifyInstance, 'db' | 'log'>): MapCache {
  let cache = caches.get(app.db);
  if (!cache) {
    cache = new MapCache(app.db, { onError: (err) => app.log.error({ err }, 'map cache') });
    caches.set(app.db, cache);
  }
  return cache;
}

/** Closes and forgets the map cache of the app's database (on app close). */
export async function closeMapCache(app: Pick<FastifyInstance, 'db'>): Promise<void> {
  const cache = caches.get(app.db);
  caches.delete(app.db);
  await cache?.close();
}

/** The columns of a service row that decide whether and how it is on the map. */
export interface MapRowSource extends Omit<MapService, 'lat' | 'lng'> {
  status: string;
  confirmation: string;
  showOnMap: boolean;
  lat: number | null;
  lng: number | null;
}

/** The map row of a service row, or null when it is not on the map. */
export function mapRowOf(row: MapRowSource | null): MapService | null {
  if (!row || !isPubliclyVisible(row) || !row.showOnMap) return null;
  if (row.lat === null || row.lng === null) return null;
  const { id, name, category, lat, lng, countryCode, isOnline } = row;
  return { id, name, category, lat, lng, countryCode, isOnline };
}

/** One service's change, for {@link invalidateMap}. */
export interface MapChange {
  /** The service written. */
  id: string;
  /**
   * Its row before the write: null when it did not exist, undefined when the caller did not read
   * it (then the change is always announced).
   */
  before?: MapRowSource | null;
}

/**
 * Call after any write that can change what the map shows (a service approved, declined, hidden,
 * shown, moved, renamed, recategorised or deleted), once the write is committed.
 *
 * With `change` (one service): its map row is read again (one primary-key lookup); if the caller
 * gave the row before the write and the service was and stays off the map, or its map fields did
 * not change, nothing happens. Otherwise the `map_version` settings row is bumped (so other
 * instances reload at their next version check, at most about a second later) and this
 * instance's snapshot is patched in place (MapCache.patch): every later request here sees the
 * change, and only the indexes of filter combinations holding the service are rebuilt, after the
 * writer's answer has gone.
 *
 * Without `change` (many services, say an account erased): the version is bumped and this
 * instance drops its snapshot and indexes, so the next map request waits for fresh data.
 *
 * Never throws: a failure is logged, the local cache is dropped, and the other instances still
 * notice by count and `updated_at`.
 */
export async function invalidateMap(
  app: Pick<FastifyInstance, 'db' | 'log'>,
  change?: MapChange,
): Promise<void> {
  if (change) {
    let after: MapService | null;
    try {
      after = (await readServices(app.db, change.id))[0] ?? null;
    } catch (err) {
      app.log.error({ err }, 'map row read failed');
      return invalidateMap(app);
    }
    if (change.before !== undefined && sameService(mapRowOf(change.before), after)) return;
    let token: string;
    try {
      token = await bumpMapVersion(app.db);
    } catch (err) {
      app.log.error({ err }, 'map version bump failed');
      caches.get(app.db)?.invalidate();
      return;
    }
    caches.get(app.db)?.patch(change.id, after, token);
    return;
  }
  try {
    await bumpMapVersion(app.db);
  } catch (err) {
    app.log.error({ err }, 'map version bump failed');
  } finally {
    caches.get(app.db)?.invalidate();
  }
}
