import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.js';
import { listenForSearch } from '../search/cache.js';
import { openEmbedded, type Embedded } from './embedded.js';
import { DataDirBusyError, type LockOwner } from './lock.js';
import { EmbeddedOpenError } from './recovery.js';
import { tagReplicaErrors } from './replica.js';
import * as schema from './schema.js';
import type { Db } from './types.js';

export { schema };
export type { Db };

export interface Database {
  db: Db;
  /**
   * The read replica (DATABASE_READ_URL), a hot standby: public reads only, it may lag the
   * primary by the replication delay. Absent without a replica.
   */
  read?: Db;
  /** `pglite` for the embedded default, `postgres` for a server. */
  kind: 'pglite' | 'postgres';
  /** The node-postgres pools (PostgreSQL only), for readiness and pool metrics. */
  pools?: { primary: pg.Pool; read?: pg.Pool };
  /** The embedded database on disk (not in memory): its PGlite and folder, for snapshots. */
  embedded?: { client: Embedded['client']; dbDir: string };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it the embedded database is used. */
  url?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory. */
  dataDir: string;
  /** PostgreSQL only: a read replica's URL, opened as a second pool (`Database.read`). */
  readUrl?: string;
  /**
   * PostgreSQL only: longest wait for a replica connection (a new one, or a free one of a full
   * pool) before the read goes to the primary instead. Defaults to 1000 ms.
   */
  replicaConnectTimeoutMs?: number;
  /**
   * PostgreSQL only: longest a replica query may go unanswered (a hung connection to a host that
   * vanished) before it fails and the read goes to the primary. Defaults to 10000 ms.
   */
  replicaQueryTimeoutMs?: number;
  /** PostgreSQL only: most connections per pool. Defaults to 10. */
  poolSize?: number;
  /** Apply pending migrations. Defaults to true. */
  migrate?: boolean;
  /** Errors of idle pooled connections (a restarted server); without it they are printed. */
  onPoolError?: (err: Error, pool: 'primary' | 'read') => void;
  /**
   * Embedded only: run once the folder is open, before the migrations; a rejection closes the
   * database and is thrown (the server's check that the folder is whole, db/recovery.ts).
   */
  beforeMigrate?: (db: Db) => Promise<void>;
  /** Embedded only: start from this dump (`PGlite.dumpDataDir`), e.g. a benchmark's seeded data. */
  loadDataDir?: Blob;
  /**
   * Embedded on disk: who opens the folder (`server`, `admin:create`…), named in the message a
   * second opener gets. The folder is locked until close(); a folder another live process holds
   * throws DataDirBusyError (db/lock.ts). Defaults to `process`.
   */
  owner?: LockOwner;
}

/**
 * Opens the database and applies the checked-in SQL migrations. The embedded PGlite is the
 * default; a URL switches to PostgreSQL with the same schema and migrations.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const max = options.poolSize ?? 10;
    const onPoolError =
      options.onPoolError ??
      ((err: Error, which: string) =>
        console.warn(`[poruch] idle ${which} database connection failed: ${err.message}`));
    const pool: pg.Pool = new pg.Pool({
      connectionString: options.url,
      max,
      // Awaited by the pool before it hands a new connection out (pg-pool 3.14).
      onConnect: (client) => listenForSearch(pool, client),
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process.
    pool.on('error', (err) => onPoolError(err, 'primary'));
    const db = drizzlePg(pool, { schema });
    if (options.migrate !== false) await migrateLocked(options.url, db);
    if (!options.readUrl) {
      return {
        db: db as unknown as Db,
        kind: 'postgres',
        pools: { primary: pool },
        close: () => pool.end(),
      };
    }
    // Read-only sessions: a public read that tried to write fails loudly even if the URL
    // pointed at a primary by mistake.
    const readPool = new pg.Pool({
      connectionString: options.readUrl,
      max,
      options: '-c default_transaction_read_only=on',
      // A replica that is down or unreachable must cost a read a bounded wait, not the OS's
      // TCP timeout: past it the read goes to the primary (plugins/database.ts).
      connectionTimeoutMillis: options.replicaConnectTimeoutMs ?? 1000,
      // The same for a connection that stopped answering (the pool drops it after the timeout).
      query_timeout: options.replicaQueryTimeoutMs ?? 10_000,
    });
    readPool.on('error', (err) => onPoolError(err, 'read'));
    tagReplicaErrors(readPool);
    const read = drizzlePg(readPool, { schema });
    return {
      db: db as unknown as Db,
      read: read as unknown as Db,
      kind: 'postgres',
      pools: { primary: pool, read: readPool },
      close: async () => {
        await Promise.all([pool.end(), readPool.end()]);
      },
    };
  }
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) await fs.mkdir(path.dirname(options.dataDir), { recursive: true });
  const embedded = await openEmbedded(options.dataDir, {
    owner: options.owner ?? 'process',
    loadDataDir: options.loadDataDir,
  }).catch((error: unknown) => {
    // PGlite failed on the folder itself (the server refuses to start, db/recovery.ts).
    throw error instanceof DataDirBusyError ? error : new EmbeddedOpenError(options.dataDir, error);
  });
  const db = drizzlePglite(embedded.client, { schema });
  try {
    await options.beforeMigrate?.(db as unknown as Db);
    if (options.migrate !== false) await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await embedded.close();
    throw error;
  }
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    ...(inMemory ? {} : { embedded: { client: embedded.client, dbDir: options.dataDir } }),
    close: embedded.close,
  };
}

/** Key of the advisory lock that serialises migrations of instances starting together. */
const MIGRATION_LOCK = 727_841_906_301;

/**
 * Applies pending migrations while holding a session advisory lock on its own connection, so
 * several instances starting at once migrate one after the other (the later ones find nothing
 * to do) instead of racing on the same DDL.
 */
async function migrateLocked(url: string, db: ReturnType<typeof drizzlePg<typeof schema>>) {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    // Ending the session releases the lock whatever happened.
    await lock.end();
  }
}

let migrationFiles: ReturnType<typeof readMigrationFiles> | undefined;

/** Migration state of a database against the migrations this build carries. */
export interface MigrationStatus {
  /** Migrations in MIGRATIONS_DIR. */
  expected: number;
  /** Of those, how many are not recorded as applied. */
  pending: number;
}

/**
 * Compares the database's migration journal (`drizzle.__drizzle_migrations`) with the migration
 * files: a migration counts as applied when a row with its timestamp or later exists, which is the
 * rule drizzle's migrator applies. A missing journal means nothing is applied.
 */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  migrationFiles ??= readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  const files = migrationFiles;
  const rows = async (query: ReturnType<typeof sql>) =>
    (
      (await db.execute(query)) as unknown as {
        rows: Record<string, string | null>[];
      }
    ).rows;
  const [journal] = await rows(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  const last = journal?.t
    ? Number(
        (await rows(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`))[0]
          ?.last ?? 0,
      )
    : 0;
  return {
    expected: files.length,
    pending: files.filter((f) => f.folderMillis > last).length,
  };
}
