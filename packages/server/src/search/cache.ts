import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';

/** Pages kept per database. */
const MAX_ENTRIES = 2000;
/**
 * Longest a page is reused, even with the generation unchanged. On PostgreSQL a writer moves the
 * generation on before it commits, so a search that runs in between can cache a page without
 * that write under the new generation; this bounds how long such a page lives.
 */
const MAX_AGE_MS = 30_000;

interface Entry {
  generation: string;
  at: number;
  value: unknown;
}

const caches = new WeakMap<Db, Map<string, Entry>>();
let cacheEnabled = true;

/** The generation of the searched tables (migration 0005): moves on with every write. */
async function generation(db: Db): Promise<string> {
  const res = await db.execute(sql`SELECT last_value::text AS g FROM poruch_search_generation`);
  return (res as unknown as { rows: { g: string }[] }).rows[0]!.g;
}

/**
 * A search result, from the cache when the same query ran since the last write to services,
 * vacancies or category terms (and not longer ago than MAX_AGE_MS), else computed and kept.
 * Popular pages (the first page of a country, a category, a frequent word) are asked again and
 * again; a repeated one costs one tiny query instead of a search.
 */
export async function cached<T>(
  db: Db,
  key: string,
  compute: () => Promise<T>,
  now = Date.now(),
): Promise<T> {
  if (!cacheEnabled) return compute();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const gen = await generation(db);
  const hit = cache.get(key);
  if (hit && hit.generation === gen && now - hit.at < MAX_AGE_MS) {
    // Most recently used last, so eviction drops the least recently used.
    cache.delete(key);
    cache.set(key, hit);
    return structuredClone(hit.value) as T;
  }
  const value = await compute();
  cache.delete(key);
  cache.set(key, { generation: gen, at: now, value: structuredClone(value) });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

/** Turns the cache off (benchmarks measure the search itself) or back on. */
export function setSearchCache(enabled: boolean): void {
  cacheEnabled = enabled;
}
