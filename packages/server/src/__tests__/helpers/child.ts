import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../../paths.js';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  pid: number;
  output(): string;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Sends the signal and waits for the process to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** How a server command starts: from source through tsx, or the build (`dist/<name>.js`). */
function commandArgs(source: string, dist: string, built: boolean) {
  return built
    ? [path.join(REPO_ROOT, 'packages/server/dist', dist)]
    : ['--import', 'tsx', path.join(REPO_ROOT, 'packages/server/src', source)];
}

/**
 * The server from source (`src/main.ts` through tsx), or with `built` the build
 * (`dist/main.js`, as production runs it), as a child process, killable. Resolves once /healthz
 * answers, or with `until` as soon as its output matches (the moment to kill it, whether it
 * listens yet or not).
 */
export async function startChildServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
  { built = false, until }: { built?: boolean; until?: (output: string) => boolean } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, commandArgs('main.ts', 'main.js', built), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      TILE_URL: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  /** Ends the wait between two looks at /healthz (new output for `until`). */
  let wake = () => {};
  // Kept for the test, and on the test's console, shown for a failing test only.
  const collect = (c: Buffer) => {
    output += c.toString();
    console.log(c.toString().trimEnd());
    wake();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    if (until?.(output)) break;
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 100);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      wake = until ? done : () => {};
    });
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    exited,
    kill: async (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/**
 * A command of the server package (`src/cli/<name>.ts` through tsx, or with `built` its build
 * `dist/<name>.js`), run as the operator runs it (`pnpm admin:create` …): its exit code and its
 * output (stdout and stderr together). `env` is laid over the test's environment; a key set to
 * undefined is removed (no DATABASE_URL: PGlite).
 */
export function runCli(
  name: 'admin-create' | 'backup' | 'restore' | 'seed-synthetic',
  args: string[],
  env: Record<string, string | undefined>,
  { built = false }: { built?: boolean } = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const merged: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', ...env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
    const child = spawn(
      process.execPath,
      [...commandArgs(`cli/${name}.ts`, `${name}.js`, built), ...args],
      { cwd: REPO_ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    // 'close', not 'exit': the output may still be arriving when the process has exited.
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * Prefix of the migrated template databases the test databases copy (databaseTemplate.ts); the
 * `server-pg` project drops them after its run.
 */
export const POSTGRES_TEMPLATE_PREFIX = 'poruch_template_';

/** Drops every template database on the server (the copies are the tests' own to drop). */
export async function dropPostgresTemplates(serverUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [POSTGRES_TEMPLATE_PREFIX],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A new, empty database on the PostgreSQL server at `serverUrl`; `drop` removes it. With `keep`
 * (a benchmark's seeded data), the database has that name and is reused when it exists
 * (`created` says which). With `template`, it is a copy of that database.
 */
export async function throwawayPostgres(
  serverUrl: string,
  prefix = 'poruch_t',
  { keep, template }: { keep?: string; template?: string } = {},
) {
  const name = keep ?? `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = keep
    ? (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount
    : 0;
  if (!exists)
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    created: !exists,
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
