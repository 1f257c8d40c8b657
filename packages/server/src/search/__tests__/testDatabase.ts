import { afterAll, beforeAll } from 'vitest';
import type { Database, Db } from '../../db/index.js';
import { freshDatabase } from '../../__tests__/helpers/server.js';
import { setSearchCache } from '../index.js';

/**
 * A fresh database for one search suite (PGlite, or PostgreSQL in the server-pg project), closed
 * after it. `cacheOff`: the result cache is off while the suite runs, so every search runs its
 * statements. `setup` runs once the database is open. `db` is set before the first test.
 */
export function searchTestDatabase(
  options: { cacheOff?: boolean; setup?: (db: Db) => Promise<void> } = {},
): { readonly db: Db } {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, drop } = await freshDatabase());
    if (options.cacheOff) setSearchCache(false);
    await options.setup?.(database.db);
  });
  afterAll(async () => {
    if (options.cacheOff) setSearchCache(true);
    await database?.close();
    await drop?.();
  });
  return {
    get db() {
      if (!database) throw new Error('the search test database is not open yet');
      return database.db;
    },
  };
}
