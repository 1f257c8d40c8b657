/**
 * What the benchmarks share: a throwaway PostgreSQL (the tests' own cluster unless `--pg` names a
 * server) and database, the app on a port, autocannon.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { throwawayPostgres } from '../src/__tests__/helpers/child.js';
import { startPostgresCluster } from '../src/__tests__/helpers/postgresCluster.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { settings } from '../src/db/schema.js';
import { loadEnv } from '../src/env.js';
import { DEMO_SEED_KEY } from '../src/seed/demo.js';
import { seedSynthetic } from '../src/seed/synthetic.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The command line of a benchmark: its own `options` plus `--quick`, `--pg <server url>` and
 * `--no-pg`. `pg` is `--pg`, else BENCH_DATABASE_URL, else '' (a throwaway cluster started on
 * first use, see {@link benchPostgres}). Options of other benchmarks
 * (`pnpm bench -- --services 1000`) are not ours and are ignored.
 */
export function benchArgs(
  options: Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>,
): Record<string, string | boolean | undefined> & { quick: boolean; pg: string } {
  const { values } = parseArgs({
    options: {
      ...options,
      quick: { type: 'boolean', default: false },
      pg: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? '' },
      'no-pg': { type: 'boolean', default: false },
    },
    strict: false,
  });
  return {
    ...(values as Record<string, string | boolean | undefined>),
    quick: values.quick === true,
    pg: String(values.pg),
  };
}

/** The p-th percentile of sorted numbers. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

let ownCluster: Promise<string> | undefined;

/**
 * The PostgreSQL server of a benchmark: `serverUrl` (`--pg`) when given, else a throwaway
 * PostgreSQL started once for this process from the installed binaries, as the tests' own
 * (helpers/postgresCluster.ts: a temporary folder, a free loopback port, the machine's clusters
 * untouched), removed when the process exits.
 */
export function benchPostgres(serverUrl = ''): Promise<string> {
  if (serverUrl) return Promise.resolve(serverUrl);
  ownCluster ??= startPostgresCluster().then((cluster) => cluster.url);
  return ownCluster;
}

/**
 * A new database on the PostgreSQL server ({@link benchPostgres}: '' is the throwaway one),
 * migrated; `drop` closes and drops it. With `keep`, the database has that name and is reused
 * when it exists (`created` says which).
 */
export async function postgresDatabase(serverUrl: string, keep?: string) {
  const target = await throwawayPostgres(await benchPostgres(serverUrl), 'poruch_bench', { keep });
  const database = await openDatabase({ url: target.url, dataDir: '' });
  return {
    database,
    url: target.url,
    created: target.created,
    drop: async () => {
      await database.close().catch(() => {}); // already closed with the app
      await target.drop();
    },
  };
}

/** `run` on a new migrated database of the PostgreSQL server ({@link postgresDatabase}), dropped after. */
export async function onPostgres<T>(serverUrl: string, run: (database: Database) => Promise<T>) {
  const { database, drop } = await postgresDatabase(serverUrl);
  try {
    return await run(database);
  } finally {
    await drop();
  }
}

/**
 * The whole app on a free loopback port, over `database`, with `env` over the bench's (silent, no
 * demo seed); `close` closes the database too.
 */
export async function serveApp(database: Database, env: Record<string, string> = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-bench-'));
  const app = await buildApp({
    env: loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      ...env,
    }),
    database,
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    app,
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

/**
 * The server as in production: `node --import tsx src/main.ts` with NODE_ENV=production, only
 * PATH and HOME from this environment, info-level JSON logs to a pipe that is read and dropped
 * (the server pays for writing them). Resolves once /healthz answers; `stop` is SIGTERM.
 */
export async function startServerProcess(env: Record<string, string>) {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      MAIL_WORKER: 'false',
      LOG_LEVEL: 'info',
      TILE_URL: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  proc.stdout!.resume();
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

/**
 * `services` synthetic services (seed 1, marked as the demo seed so the server does not seed) in
 * a closed database for a server process: PGlite in a new folder, or with `pgServerUrl` (`--pg`;
 * '' is the throwaway server, see {@link benchPostgres}) a throwaway PostgreSQL database. `env`
 * is DATA_DIR (and DATABASE_URL); `remove` deletes both. With `reuse` (a bench's `--data`), a
 * PGlite catalogue seeded once is kept in `<reuse>/synthetic-<services>` and copied for each
 * run (seeding 100k takes minutes; each run gets its own copy to change).
 */
export async function syntheticDatabase(
  services: number,
  prefix: string,
  pgServerUrl?: string,
  { reuse }: { reuse?: string } = {},
) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  const pgDb = pgServerUrl !== undefined ? await postgresDatabase(pgServerUrl) : null;
  // A PGlite folder seeded by an earlier run with the same count (`--data`): copied, not seeded.
  const seeded = reuse && !pgDb ? path.join(reuse, `synthetic-${services}`) : undefined;
  if (seeded && (await fs.stat(path.join(seeded, 'PG_VERSION')).catch(() => null))) {
    console.error(`copying the ${services} services seeded in ${seeded}…`);
    await fs.cp(seeded, path.join(dataDir, 'db'), { recursive: true });
  } else {
    const database = pgDb?.database ?? (await openDatabase({ dataDir: path.join(dataDir, 'db') }));
    await seedSynthetic(database.db, { services, seed: 1 });
    await database.db
      .insert(settings)
      .values({ key: DEMO_SEED_KEY, value: 'synthetic' })
      .onConflictDoNothing();
    await database.close();
    if (seeded) {
      await fs.rm(seeded, { recursive: true, force: true });
      await fs.cp(path.join(dataDir, 'db'), seeded, { recursive: true });
    }
  }
  return {
    dataDir,
    url: pgDb?.url,
    env: { DATA_DIR: dataDir, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) },
    /** The same database, open again (to check what the server wrote). */
    open: () => openDatabase({ url: pgDb?.url, dataDir: path.join(dataDir, 'db') }),
    remove: async () => {
      await fs.rm(dataDir, { recursive: true, force: true });
      await pgDb?.drop();
    },
  };
}
