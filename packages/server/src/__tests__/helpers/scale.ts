import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../app.js';
import { openDatabase, type Database, type DatabaseOptions } from '../../db/index.js';
import { loadEnv, type Env } from '../../env.js';
import type { LogDestination } from '../../logging.js';
import { throwawayPostgres } from './child.js';
import { testLog, type TestServer } from './server.js';

/** Retries `check` until it passes or `timeoutMs` is over (then throws its last failure). */
export async function eventually(check: () => Promise<void>, timeoutMs: number, stepMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}

/**
 * `GET /test/recovery/replica` (a replica route) and `GET /test/recovery/primary` answer
 * `pg_is_in_recovery()` of the connection that ran them: true when the standby served the read.
 */
export function recoveryRoutes(app: FastifyInstance) {
  const recovery = async () => {
    const res = await app.db.execute(sql`select pg_is_in_recovery() as r`);
    return (res as unknown as { rows: { r: boolean }[] }).rows[0]!.r;
  };
  app.get('/test/recovery/replica', { config: { replica: true } }, recovery);
  app.get('/test/recovery/primary', recovery);
}

/**
 * The app over `env`'s DATABASE_URL and DATABASE_READ_URL, opened as main.ts opens them (the
 * replica timeouts from `env`), with {@link recoveryRoutes}, on a loopback port. Closing the app
 * closes the database.
 */
export async function serveReplicaApp(
  env: Env,
  options: {
    /** Over what main.ts passes (e.g. `migrate: false` for a second app on the same database). */
    database?: Partial<DatabaseOptions>;
    logStream?: LogDestination;
  } = {},
): Promise<{ app: FastifyInstance; database: Database; url: string }> {
  const database = await openDatabase({
    url: env.DATABASE_URL,
    readUrl: env.DATABASE_READ_URL,
    replicaConnectTimeoutMs: env.REPLICA_CONNECT_TIMEOUT_MS,
    replicaQueryTimeoutMs: env.REPLICA_QUERY_TIMEOUT_MS,
    dataDir: '',
    ...options.database,
  });
  const app = await buildApp({ env, database, logStream: options.logStream ?? testLog });
  recoveryRoutes(app);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, database, url };
}

/** A {@link TestServer} (for the helpers that take one) over a primary and its standby. */
export interface ReplicaApp extends TestServer {
  /** The throwaway database on the primary. */
  db: Awaited<ReturnType<typeof throwawayPostgres>>;
}

/**
 * A throwaway database on the primary, read through the streaming hot standby once the new
 * database has reached it with the WAL, and {@link serveReplicaApp} over both, without the mail
 * worker. `close` closes the app, drops the database and removes the data folder.
 */
export async function startReplicaApp(options: {
  /** The primary's server URL (TEST_DATABASE_URL). */
  primary: string;
  /** The standby's server URL (TEST_DATABASE_READ_URL). */
  standby: string;
  /** Prefix of the names of the database and the data folder. */
  name: string;
  /**
   * What the app gets as DATABASE_READ_URL, given the standby's URL of the new database (e.g. a
   * proxy in front of it). Defaults to that URL.
   */
  readUrl?: (standby: URL) => URL | Promise<URL>;
  /** More environment, over the test's (login and signup limits out of the way). */
  env?: Record<string, string>;
  database?: Partial<DatabaseOptions>;
  logStream?: LogDestination;
}): Promise<ReplicaApp> {
  const db = await throwawayPostgres(options.primary, options.name);
  let dataDir = '';
  const remove = async () => {
    await db.drop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    const standby = new URL(options.standby);
    standby.pathname = `/${db.name}`;
    await eventually(async () => {
      const c = new pg.Client({ connectionString: standby.toString() });
      await c.connect();
      await c.end();
    }, 20_000);
    const readUrl = options.readUrl ? await options.readUrl(standby) : standby;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `${options.name}-`));
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      DATABASE_READ_URL: readUrl.toString(),
      MAIL_WORKER: 'false',
      RATE_LOGIN_PER_IP: '1000',
      RATE_LOGIN_PER_ACCOUNT: '1000',
      RATE_SIGNUP_PER_IP: '1000',
      ...options.env,
    });
    const { app, database, url } = await serveReplicaApp(env, options);
    const close = async () => {
      await app.close();
      await remove();
    };
    return { db, database, app, url, env, dataDir, close };
  } catch (err) {
    await remove();
    throw err;
  }
}
