/** What the benchmarks share: a throwaway PostgreSQL database, the app on a port, autocannon. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { loadEnv } from '../src/env.js';

/** The p-th percentile of sorted numbers. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/**
 * A new database on the PostgreSQL server, migrated; `drop` closes and drops it. With `keep`,
 * the database has that name and is reused when it exists (`created` says which).
 */
export async function postgresDatabase(serverUrl: string, keep?: string) {
  const name = keep ?? `poruch_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = keep
    ? (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount
    : 0;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: '' });
  return {
    database,
    created: !exists,
    drop: async () => {
      await database.close().catch(() => {}); // already closed with the app
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The whole app on a free loopback port, over `database`; `close` closes the database too. */
export async function serveApp(database: Database) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-bench-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ env, database });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    close: async () => {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** autocannon at 50 connections for `duration` seconds. */
export const cannon = (duration: number, opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ connections: 50, duration, ...opts }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
