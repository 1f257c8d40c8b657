import { sql } from 'drizzle-orm';
import { searchCacheStamp } from '../../search/cache.js';
import type { TestServer } from './server.js';

/**
 * Sets a service's used count with triggers off, so no `poruch_search` notification: a page kept
 * by the search cache or a profile cache misses it.
 */
export const setUsedCountSilently = (server: TestServer, id: string, usedCount: number) =>
  server.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`UPDATE services SET used_count = ${usedCount} WHERE id = ${id}`);
  });

/**
 * Waits until the last write's notification has reached every listening connection: on
 * PostgreSQL each pooled connection listens, and the copies to the idle ones arrive a moment
 * after the write returns, each retiring the pages kept meanwhile.
 */
export async function cacheQuiet(server: TestServer) {
  // A bounded wait by design: it proves that no more copies arrive. They come within a few
  // milliseconds of the write (one per pooled connection), so a 100 ms stretch without one means
  // they have all arrived.
  for (let before = await searchCacheStamp(server.app.db); ;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await searchCacheStamp(server.app.db);
    if (now === before) return;
    before = now;
  }
}
