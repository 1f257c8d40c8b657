/**
 * A throwaway PostgreSQL for the tests and the benchmarks: a primary (and, when asked, a streaming
 * hot standby of it) from the installed PostgreSQL binaries, in a new folder under the system's
 * temporary folder, on free loopback ports, removed afterwards. Nothing of the machine's own
 * PostgreSQL (its clusters, roles, pg_hba.conf, ports 5432/5433) is used or changed.
 *
 * As root (CI), initdb, postgres and pg_basebackup run as the unprivileged `postgres` user (the
 * one Debian's package creates), which owns the folder; as anyone else they run as that user.
 * Only node built-ins: vitest.config.ts imports {@link postgresBinDir}.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The prefix of the clusters' folders in the temporary folder. */
export const CLUSTER_DIR_PREFIX = 'poruch-pg-';

const isDir = (bin: string) => fs.existsSync(path.join(bin, 'initdb'));

/**
 * The folder of initdb, postgres and pg_basebackup: PG_BIN_DIR (as for `pnpm backup`) when it
 * holds them, Debian's PostgreSQL 15 (/usr/lib/postgresql/15/bin), or `pg_config --bindir`; null
 * when there are none.
 */
export function postgresBinDir(): string | null {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv && isDir(fromEnv)) return fromEnv;
  if (isDir('/usr/lib/postgresql/15/bin')) return '/usr/lib/postgresql/15/bin';
  try {
    const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: 'pipe' }).trim();
    return isDir(bin) ? bin : null;
  } catch {
    return null;
  }
}

export interface PostgresCluster {
  /** The primary's `postgres` database as its superuser, on 127.0.0.1. */
  url: string;
  /** The standby's, when started with `standby: true`. */
  readUrl?: string;
  /** The folder holding both data folders and their logs; removed by {@link stop}. */
  dir: string;
  /** The postmasters' process ids (the primary's first). */
  pids: number[];
  /** Stops the servers (immediate shutdown) and removes the folder. */
  stop(): Promise<void>;
}

/** A free TCP port on loopback (not 5432/5433: those are the machine's). */
async function freeLoopbackPort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    if (port !== 5432 && port !== 5433) return port;
  }
}

/** Who runs the binaries: the `postgres` user when we are root, else ourselves (no change). */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      'PostgreSQL refuses to run as root and there is no `postgres` user to run it as: ' +
        'install postgresql-15 (which creates it) or run the tests as a normal user',
    );
  }
}

/** Our environment without libpq's PG* variables, which would point the tools elsewhere. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PG')) env[k] = v;
  return { ...env, ...extra };
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The postmaster's pid from a data folder's postmaster.pid, or null when it is not running. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Synchronously: immediate shutdown of the postmasters in the folder's data folders (SIGQUIT,
 * SIGKILL after 5 s), then the folder removed. For 'exit' handlers and for leftovers of a crashed
 * run; `isOurs` says whether a pid may be signalled (a leftover's pid may have been reused).
 */
function removeClusterSync(dir: string, isOurs: (pid: number) => boolean) {
  const dataDirs = ['primary', 'standby'].map((d) => path.join(dir, d));
  const signal = (sig: NodeJS.Signals) => {
    for (const d of dataDirs) {
      const pid = postmasterPid(d);
      if (pid && isOurs(pid)) {
        try {
          process.kill(pid, sig);
        } catch {
          // gone, or not ours to signal
        }
      }
    }
  };
  signal('SIGQUIT');
  // A postmaster removes postmaster.pid when it exits.
  const deadline = Date.now() + 5000;
  while (dataDirs.some((d) => postmasterPid(d)) && Date.now() < deadline) sleepSync(20);
  signal('SIGKILL');
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch {
    // not ours to remove (another user's), or already gone
  }
}

/** Clusters of this process not stopped yet: removed when the process exits, however it does. */
const running = new Map<string, ChildProcess[]>();

function removeAllSync() {
  for (const [dir, children] of running) {
    const pids = new Set(children.map((c) => c.pid));
    removeClusterSync(dir, (pid) => pids.has(pid));
  }
  running.clear();
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.once('exit', removeAllSync);
  // A signal ends Node without 'exit': remove first, then end as the signal would have unless
  // someone else (vitest) handles it.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      removeAllSync();
      if (process.listenerCount(sig) === 0) process.exit(128 + os.constants.signals[sig]);
    });
  }
}

/** The `/proc/<pid>/cmdline` of a process, '' when it cannot be read (not Linux, gone). */
const cmdline = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return fs.existsSync('/proc') ? '' : 'postgres';
  }
};

/**
 * Removes the folders (and stops the servers) that a run which is no longer alive left behind (a
 * crash or SIGKILL gives no chance to clean up). Each folder names its owner's pid; folders of
 * live processes (a parallel test run) are kept.
 */
export function removeStaleClusters(tmp = os.tmpdir()) {
  let names: string[];
  try {
    names = fs.readdirSync(tmp).filter((n) => n.startsWith(CLUSTER_DIR_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(tmp, name);
    let owner: number;
    try {
      owner = Number(fs.readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
    } catch {
      // Being created (the owner file comes first), or not ours: only old ones.
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 10 * 60_000) continue;
      } catch {
        continue;
      }
      owner = 0;
    }
    if (owner > 0 && owner !== process.pid && alive(owner)) continue;
    if (owner === process.pid && running.has(dir)) continue;
    removeClusterSync(dir, (pid) => cmdline(pid).includes('postgres'));
  }
}

/** Runs a PostgreSQL tool to completion; rejects with its output when it fails. */
function runTool(
  bin: string,
  args: string[],
  user: { uid: number; gid: number } | undefined,
  env: NodeJS.ProcessEnv,
) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(bin, args, { env, ...user, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code, sig) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(bin)} failed (${code ?? sig}):\n${out}`)),
    );
  });
}

/**
 * Starts a throwaway cluster: `initdb` (UTF-8, C.UTF-8 locale; a random superuser password,
 * scram-sha-256 over TCP) into a new folder, `postgres` listening on 127.0.0.1 only (no unix
 * socket) on a free port, and with `standby`, `pg_basebackup -R` of it started as a streaming hot
 * standby on another free port. Leftovers of crashed runs are removed first. Resolves once every
 * server accepts connections (a second or two).
 */
export async function startPostgresCluster(
  options: { standby?: boolean; binDir?: string } = {},
): Promise<PostgresCluster> {
  const binDir = options.binDir ?? postgresBinDir();
  if (!binDir) throw new Error('no PostgreSQL binaries (initdb): install postgresql-15');
  const user = unprivilegedUser();
  removeStaleClusters();
  hookExit();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), CLUSTER_DIR_PREFIX));
  fs.writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  const children: ChildProcess[] = [];
  running.set(dir, children);
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const password = randomBytes(18).toString('base64url');
  const env = cleanEnv({ PGPASSWORD: password, PGPASSFILE: '/dev/null' });
  const bin = (name: string) => path.join(binDir, name);

  /** A postmaster on `dataDir`, resolved once it accepts connections (postmaster.pid says so). */
  const serve = async (name: 'primary' | 'standby', port: number) => {
    const dataDir = path.join(dir, name);
    const log = fs.openSync(path.join(dir, `${name}.log`), 'a');
    const child = spawn(
      bin('postgres'),
      ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'],
      { env, ...user, stdio: ['ignore', log, log] },
    );
    fs.closeSync(log);
    // Not a reason for Node to stay up: a benchmark ends when its work does (then 'exit' stops it).
    child.unref();
    children.push(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', () => {});
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) {
        const out = fs.readFileSync(path.join(dir, `${name}.log`), 'utf8');
        throw new Error(`PostgreSQL (${name}) exited:\n${out.slice(-2000)}`);
      }
      let status = '';
      try {
        status = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[7] ?? '';
      } catch {
        // not written yet
      }
      if (/^(ready|standby)/.test(status.trim())) return { child, exited };
      if (Date.now() > deadline) throw new Error(`PostgreSQL (${name}) did not start in 60 s`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  const servers: Awaited<ReturnType<typeof serve>>[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const s of [...servers].reverse()) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGQUIT');
        const late = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
        await s.exited;
        clearTimeout(late);
      }
    }
    // Stopped before it listened (a failed start): the synchronous way finds its postmaster.
    removeClusterSync(dir, (pid) => children.some((c) => c.pid === pid));
    running.delete(dir);
  };

  try {
    const pwfile = path.join(dir, 'pwfile');
    fs.writeFileSync(pwfile, password, { mode: 0o600 });
    if (user) fs.chownSync(pwfile, user.uid, user.gid);
    await runTool(
      bin('initdb'),
      [
        '-D',
        path.join(dir, 'primary'),
        '-U',
        'postgres',
        `--pwfile=${pwfile}`,
        '--auth-host=scram-sha-256',
        '--auth-local=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
        '--no-sync',
      ],
      user,
      env,
    );
    fs.rmSync(pwfile);
    const url = (port: number) => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    // No unix socket: TCP on loopback only, with the password.
    fs.appendFileSync(
      path.join(dir, 'primary', 'postgresql.conf'),
      "\n# poruch throwaway test cluster\nunix_socket_directories = ''\n",
    );
    let primaryPort = 0;
    for (let attempt = 1; ; attempt++) {
      primaryPort = await freeLoopbackPort();
      try {
        servers.push(await serve('primary', primaryPort));
        break;
      } catch (err) {
        // Another process took the port between the check and the start: another one.
        if (attempt === 3 || !/could not (bind|create listen)/.test(String(err))) throw err;
      }
    }
    const cluster: PostgresCluster = {
      url: url(primaryPort),
      dir,
      pids: [],
      stop,
    };
    if (options.standby) {
      await runTool(
        bin('pg_basebackup'),
        [
          '-h',
          '127.0.0.1',
          '-p',
          String(primaryPort),
          '-U',
          'postgres',
          '-D',
          path.join(dir, 'standby'),
          '-R',
          '-X',
          'stream',
          '-c',
          'fast',
          '--no-sync',
        ],
        user,
        env,
      );
      for (let attempt = 1; ; attempt++) {
        const port = await freeLoopbackPort();
        try {
          servers.push(await serve('standby', port));
          cluster.readUrl = url(port);
          break;
        } catch (err) {
          if (attempt === 3 || !/could not (bind|create listen)/.test(String(err))) throw err;
        }
      }
    }
    cluster.pids = servers.map((s) => s.child.pid!);
    return cluster;
  } catch (err) {
    await stop();
    throw err;
  }
}
