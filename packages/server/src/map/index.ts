import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import { bumpMapVersion, MapCache } from './MapCache.js';

export {
  MapCache,
  bumpMapVersion,
  filterKey,
  readServices,
  readVersion,
  readVersionToken,
} from './MapCache.js';
export type { MapCacheOptions, MapFilter } from './MapCache.js';
export {
  MapIndex,
  MAX_CLUSTER_ZOOM,
  MAX_ITEMS,
  fitZoom,
  normalizeBBox,
  toFeature,
} from './MapIndex.js';
export type { MapFeature, MapQueryResult, MapService } from './MapIndex.js';

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

/**
 * Call after any write that can change what the map shows (a service approved, declined, hidden,
 * shown, moved, renamed, recategorised or deleted). This instance drops its indexes at once, so the
 * writer's next map request waits for fresh data; the `map_version` settings row is bumped, so
 * other instances reload at their next version check (at most about a second later). Never throws:
 * a failed bump is logged, and the other instances still notice by count and `updated_at`.
 */
export async function invalidateMap(app: Pick<FastifyInstance, 'db' | 'log'>): Promise<void> {
  try {
    await bumpMapVersion(app.db);
  } catch (err) {
    app.log.error({ err }, 'map version bump failed');
  } finally {
    caches.get(app.db)?.invalidate();
  }
}
