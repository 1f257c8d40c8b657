import { afterAll, beforeAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database, type Db } from '../../db/index.js';
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

/**
 * Another instance on the PostgreSQL database of `db` (server-pg only): a second pool, as another
 * server process opens it, with its own search cache and word index.
 */
export async function otherInstance(db: Db): Promise<Database> {
  const res = await db.execute(sql`SELECT current_database() AS name`);
  const [row] = (res as unknown as { rows: { name: string }[] }).rows;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return openDatabase({ url: url.toString(), dataDir: '' });
}
