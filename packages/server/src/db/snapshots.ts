/**
 * Online snapshots of the embedded database (docs/operations.md § Snapshots and recovery).
 *
 * A snapshot is taken while the server serves, as PostgreSQL's crash recovery would rebuild it:
 * pg_control as it is at the start (it names the last checkpoint), a copy of the data folder's
 * files with asynchronous reads, then the WAL from that checkpoint's redo point to what was
 * written by the end of the copy. Opening the snapshot replays that WAL, which puts right every
 * page that changed during the copy, as for any PostgreSQL base backup: with full-page writes on,
 * the first change of a page after a checkpoint logs the whole page. The WAL is read after the
 * data files (a page reaches its file only after the WAL of its changes), and a temporary
 * replication slot keeps it from being recycled by the checkpoints taken meanwhile
 * (db/checkpoints.ts). No checkpoint of its own: `pg_backup_start` would write every page
 * changed since the last one while it holds PGlite. Only three small calls (the slot, the WAL's
 * end, the slot dropped) run on PGlite's (single) thread; the copy and the compression do not
 * hold it, so requests go on meanwhile. This process only reads the files and pipes the tar to a
 * child process at a low priority (db/snapshot-verify.ts `--gzip`, see writeSynced), which
 * compresses it: gzip here took a core the server's thread then had to wait for.
 *
 * The file is a gzipped tarball in the layout of PGlite's `dumpDataDir`, so `pnpm restore` and
 * `loadDataDir` read it like any PGlite backup. The child writes it to a temporary name and
 * syncs it; the server renames it; then it is opened in a scratch instance (a child process at a
 * low priority, off the request path, see verifySnapshot) whose row counts go into a manifest
 * beside it (`<file>.json`, written the same way). Only a snapshot with a manifest counts as
 * good: `pnpm restore --latest` and the start-up refusal name the newest one.
 */
import fs from 'node:fs/promises';
import { fork } from 'node:child_process';
import { constants as fsConstants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { createPrivateFile, ensurePrivateDir, writePrivateFile } from '../lib/private-files.js';

/** Folder of the snapshots: `DATA_DIR/backups`. */
export const snapshotDir = (dataDir: string) => path.join(dataDir, 'backups');

const SUFFIX = '.pglite.tar.gz';
const MANIFEST = '.json';

/** The tables whose rows a verification counts (and the manifest records). */
export const COUNTED_TABLES = ['accounts', 'services', 'vacancies', 'reports'] as const;
export type RowCounts = Record<(typeof COUNTED_TABLES)[number], number>;

/** What `<snapshot>.json` holds: written only after the snapshot opened and was counted. */
export interface SnapshotManifest {
  file: string;
  createdAt: string;
  bytes: number;
  verified: true;
  counts: RowCounts;
}

/** A good snapshot on disk. */
export interface GoodSnapshot extends SnapshotManifest {
  /** Absolute path of the tarball. */
  path: string;
}

/** Data-folder entries a snapshot leaves out: recreated at start, or this process's own. */
const SKIP_CONTENTS = new Set([
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
  'pg_replslot',
]);
const CONTROL_FILE = 'global/pg_control';
const SKIP_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  CONTROL_FILE, // as it was before the copy, see dumpOnline
]);

/** One 512-byte ustar header. */
function tarHeader(name: string, size: number, mode: number, mtime: number, dir: boolean) {
  const h = Buffer.alloc(512);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 99) {
    const cut = name.lastIndexOf('/', 154);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  const put = (s: string, at: number, len: number) => h.write(s, at, len, 'utf8');
  const num = (n: number, at: number, len: number) =>
    put(`${n.toString(8).padStart(len - 1, '0')}\0`, at, len);
  put(base, 0, 100);
  num(mode & 0o7777, 100, 8);
  num(0, 108, 8);
  num(0, 116, 8);
  num(size, 124, 12);
  num(Math.floor(mtime / 1000), 136, 12);
  put('        ', 148, 8);
  put(dir ? '5' : '0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put(prefix, 345, 155);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

const pad = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);
const CHUNK = 1024 * 1024;

function* tarFile(name: string, content: Buffer) {
  yield tarHeader(`/${name}`, content.length, 0o600, Date.now(), false);
  yield content;
  yield pad(content.length);
}

/** A file's bytes as they are now, exactly `size` long (a file that shrank meanwhile: zeros). */
async function* fileBytes(file: string, size: number) {
  const handle = await fs.open(file, 'r');
  try {
    let at = 0;
    while (at < size) {
      // Not zero-filled: only the bytes read are handed on.
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size - at));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) {
        yield Buffer.alloc(size - at);
        return;
      }
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** Tar entries of the files under `root/rel`, directories first; `walk` decides what goes in. */
async function* tarTree(
  root: string,
  rel: string,
  include: (rel: string, dir: boolean) => 'all' | 'dir-only' | 'skip',
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    const full = path.join(root, child);
    signal?.throwIfAborted();
    const rule = include(child, entry.isDirectory());
    if (rule === 'skip') continue;
    let stat;
    try {
      stat = await fs.stat(full);
    } catch (error) {
      // Removed since the listing (a temporary file): not part of the snapshot.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (stat.isDirectory()) {
      yield tarHeader(`/${child}`, 0, stat.mode, stat.mtimeMs, true);
      if (rule === 'all') yield* tarTree(root, child, include, signal);
    } else if (stat.isFile()) {
      yield tarHeader(`/${child}`, stat.size, stat.mode, stat.mtimeMs, false);
      yield* fileBytes(full, stat.size);
      yield pad(stat.size);
    }
  }
}

/**
 * Writes a file from `chunks` through `<file>.partial`, fsynced and renamed into place. The
 * compression and the writing run in a child process at a low priority (db/snapshot-verify.ts,
 * `--gzip`): this process only hands it the tar's bytes through a pipe. gzip in this process
 * (libuv's thread pool) took a whole core, so on two cores the server's thread waited for one
 * (its event loop's longest delay during a copy of 10k services: 88.7 ms instead of 28).
 */
async function writeSynced(file: string, chunks: AsyncIterable<Buffer>, signal?: AbortSignal) {
  const tmp = `${file}.partial`;
  await createPrivateFile(tmp);
  try {
    await runChild(['--gzip', tmp], 'the snapshot writer', { signal, stdin: chunks });
    await fs.rename(tmp, file);
    await syncDir(path.dirname(file));
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}

/** fsyncs a folder, so a rename in it survives a power loss. */
async function syncDir(dir: string) {
  const handle = await fs.open(dir, fsConstants.O_RDONLY);
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse to sync a folder; the rename is still atomic.
  } finally {
    await handle.close();
  }
}

/** The temporary replication slot that keeps a snapshot's WAL from being recycled meanwhile. */
const SLOT = 'poruch_snapshot';

/**
 * Copies the running database into `file` (an online base backup, see the top of this file).
 * `dbDir` is the folder PGlite has open. Resolves to the file's size and the longest time one of
 * its three small calls held PGlite (the only part that keeps requests waiting).
 */
export async function dumpOnline(
  client: PGlite,
  dbDir: string,
  file: string,
  signal?: AbortSignal,
): Promise<{ bytes: number; pauseMs: number }> {
  let pauseMs = 0;
  const call = async <T>(query: string) => {
    const started = performance.now();
    try {
      return (await client.query<T>(query)).rows[0]!;
    } finally {
      pauseMs = Math.max(pauseMs, performance.now() - started);
    }
  };
  // The slot keeps the WAL from the last checkpoint's redo point on (checkpoints during the copy
  // would recycle it); replay of the copy starts at that point, so its segment is the first one.
  const start = await call<{ wal: string; fpw: string }>(
    `SELECT pg_walfile_name(c.redo_lsn) AS wal, current_setting('full_page_writes') AS fpw
       FROM pg_create_physical_replication_slot('${SLOT}', true, true), pg_control_checkpoint() c`,
  );
  try {
    if (start.fpw !== 'on') {
      throw new Error('full_page_writes is off: an online snapshot needs it on');
    }
    // pg_control as it is now, before any data file: it names that checkpoint. A checkpoint
    // during the copy writes a newer one, whose redo point may come after pages copied earlier.
    // Read at once, on PGlite's own thread: no write of it can be under way.
    const control = readFileSync(path.join(dbDir, CONTROL_FILE));
    const chunks = async function* () {
      yield* tarTree(
        dbDir,
        '',
        (rel, dir) => {
          const top = rel.split('/')[0]!;
          if (SKIP_FILES.has(rel) || rel.endsWith('pg_internal.init')) return 'skip';
          if (top === 'pg_wal') return 'skip'; // after the data files, below
          if (SKIP_CONTENTS.has(top)) return rel === top && dir ? 'dir-only' : 'skip';
          return 'all';
        },
        signal,
      );
      yield* tarFile(CONTROL_FILE, control);
      // The WAL up to what is written now, read after the data files: a page reaches its file
      // only after the WAL of its changes. Older segments and the recycled ones ahead are not
      // needed.
      const end = await call<{ wal: string }>(
        'SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS wal',
      );
      yield* tarTree(
        dbDir,
        '',
        (rel, dir) => {
          if (rel === 'pg_wal') return 'all';
          if (!rel.startsWith('pg_wal/') || rel.startsWith('pg_wal/archive_status/')) return 'skip';
          if (dir) return 'dir-only';
          const name = rel.slice('pg_wal/'.length);
          if (!/^[0-9A-F]{24}$/.test(name)) return 'all';
          return name >= start.wal && name <= end.wal ? 'all' : 'skip';
        },
        signal,
      );
      yield Buffer.alloc(1024); // end of archive
    };
    await writeSynced(file, chunks(), signal);
    return { bytes: (await fs.stat(file)).size, pauseMs };
  } finally {
    await call(`SELECT pg_drop_replication_slot('${SLOT}')`).catch(() => {});
  }
}

/**
 * The nice value the snapshot's child processes (the writer and the verifier) run at: the server
 * goes first when they want a core.
 */
export const VERIFIER_NICE = 10;

/** Scratch folders of the verifiers: `DATA_DIR/backups/.verify/<pid>-<n>`. */
export const verifyDir = (dataDir: string) => path.join(snapshotDir(dataDir), '.verify');

/** This process's verifications in hand (their scratch folders' names). */
const running = new Set<string>();
let verifications = 0;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the scratch folders of verifiers that no longer run (one killed, or the server
 * stopped or crashed during a verification). Called at the server's start and before each
 * verification.
 */
export async function removeVerifyLeftovers(dataDir: string) {
  let names: string[];
  try {
    names = await fs.readdir(verifyDir(dataDir));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && alive(pid)) continue; // another process's verification
    if (pid === process.pid && running.has(name)) continue;
    await fs.rm(path.join(verifyDir(dataDir), name), { recursive: true, force: true });
  }
}

/**
 * The snapshot's child program (the writer and the verifier) and the node options that run it:
 * `snapshot-verify.js` beside the bundle (dist), else the TypeScript source through tsx's loader
 * (development and tests).
 */
async function childProgram(): Promise<{ program: string; execArgv: string[] }> {
  const js = new URL('./snapshot-verify.js', import.meta.url);
  const exists = await fs.access(js).then(
    () => true,
    () => false,
  );
  if (exists) return { program: fileURLToPath(js), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return {
    program: fileURLToPath(new URL('./snapshot-verify.ts', import.meta.url)),
    execArgv: ['--import', tsx],
  };
}

/** What the child sends before it exits. */
interface ChildMessage {
  counts?: RowCounts;
  done?: true;
  error?: string;
}

/**
 * Pipes `source` into a child's standard input. On an error of the source (a file that cannot be
 * read, an abort) it kills the child, whose error would only be the broken pipe's.
 */
async function feed(
  source: AsyncIterable<Buffer>,
  input: NodeJS.WritableStream,
  kill: () => void,
): Promise<{ source?: unknown; pipe?: unknown } | undefined> {
  let failed: { source: unknown } | undefined;
  const guarded = async function* () {
    try {
      yield* source;
    } catch (error) {
      failed = { source: error };
      kill();
      throw error;
    }
  };
  try {
    await pipeline(Readable.from(guarded()), input);
    return undefined;
  } catch (error) {
    return failed ?? { pipe: error };
  }
}

/**
 * Runs the snapshot's child program with `args` at VERIFIER_NICE (db/snapshot-verify.ts), feeds
 * it `stdin` when given, and resolves to its message once it has exited. Rejects with its error,
 * or, when it stopped without one, with how it ended (`<who> stopped (signal SIGKILL)`) and the
 * last line of its standard error. An abort kills it; it never outlives the call.
 */
async function runChild(
  args: string[],
  who: string,
  { signal, stdin }: { signal?: AbortSignal; stdin?: AsyncIterable<Buffer> },
): Promise<ChildMessage> {
  signal?.throwIfAborted();
  const { program, execArgv } = await childProgram();
  const child = fork(program, args, {
    execArgv,
    stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  // At once, before it starts its threads (they inherit it); the child lowers any it started.
  try {
    if (child.pid) os.setPriority(child.pid, VERIFIER_NICE);
  } catch {
    // Not allowed here: the child tries too.
  }
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const kill = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', kill);
  try {
    const [message, exit, fed] = await Promise.all([
      new Promise<ChildMessage | undefined>((resolve) => {
        child.once('message', resolve);
        child.once('exit', () => resolve(undefined));
      }),
      new Promise<string>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, sig) => resolve(sig ? `signal ${sig}` : `exit ${code}`));
      }),
      stdin && feed(stdin, child.stdin!, kill),
    ]);
    signal?.throwIfAborted();
    if (message?.error) throw new Error(message.error);
    if (fed?.source) throw fed.source;
    // A broken pipe: the child stopped (said below), or it did not read all (it cannot be done).
    if (fed?.pipe && message) throw fed.pipe;
    if (message) return message;
    throw new Error(
      `${who} stopped (${exit})${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''}`,
    );
  } finally {
    signal?.removeEventListener('abort', kill);
    if (child.exitCode === null && child.signalCode === null) kill();
  }
}

/**
 * Verifies a snapshot in a child process at a low priority (db/snapshot-verify.ts): it unpacks
 * the file into a scratch folder under `DATA_DIR/backups/.verify`, opens it there with PGlite
 * and counts the rows of the main tables. Rejects when it does not open or a table cannot be
 * read. The scratch folder is removed when the child exits, whatever the outcome; an abort
 * kills the child.
 */
export async function verifySnapshot(
  file: string,
  { dataDir, signal }: { dataDir: string; signal?: AbortSignal },
): Promise<RowCounts> {
  signal?.throwIfAborted();
  await removeVerifyLeftovers(dataDir);
  const name = `${process.pid}-${++verifications}`;
  const scratch = path.join(verifyDir(dataDir), name);
  await ensurePrivateDir(verifyDir(dataDir));
  running.add(name);
  try {
    const { counts } = await runChild([file, scratch], 'the verifier', { signal });
    if (!counts) throw new Error('the verifier sent no counts');
    return counts;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
    running.delete(name);
  }
}

/** Good snapshots in `DATA_DIR/backups`, newest first. */
export async function goodSnapshots(dataDir: string): Promise<GoodSnapshot[]> {
  const dir = snapshotDir(dataDir);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const good: GoodSnapshot[] = [];
  for (const name of names) {
    if (!name.endsWith(SUFFIX + MANIFEST)) continue;
    try {
      const manifest = JSON.parse(
        await fs.readFile(path.join(dir, name), 'utf8'),
      ) as SnapshotManifest;
      const file = path.join(dir, name.slice(0, -MANIFEST.length));
      const stat = await fs.stat(file);
      if (manifest.verified === true && stat.size === manifest.bytes) {
        good.push({ ...manifest, path: file });
      }
    } catch {
      // An unreadable manifest or a missing tarball: not a good snapshot.
    }
  }
  return good.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** A failed snapshot: the dump (`snapshot`) or its verification (`verify`). */
export class SnapshotFailure extends Error {
  override readonly name = 'SnapshotFailure';
  constructor(
    readonly stage: 'snapshot' | 'verify',
    cause: unknown,
  ) {
    super(
      `${stage === 'verify' ? 'The snapshot did not verify' : 'The snapshot failed'}: ` +
        `${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
  }
}

/** The result of one snapshot run. */
export interface SnapshotResult {
  file: string;
  createdAt: Date;
  bytes: number;
  counts: RowCounts;
  /** Longest the dump held PGlite (one of its three small calls), ms. */
  pauseMs: number;
  /** The whole run: dump, verification, manifest, ms. */
  ms: number;
}

/**
 * Takes, verifies and records one snapshot in `DATA_DIR/backups`, then deletes the oldest beyond
 * `keep`. A snapshot that does not verify is deleted and the error thrown.
 */
export async function takeSnapshot(
  client: PGlite,
  {
    dataDir,
    keep,
    now = () => new Date(),
    signal,
  }: { dataDir: string; keep: number; now?: () => Date; signal?: AbortSignal },
): Promise<SnapshotResult> {
  signal?.throwIfAborted();
  const dir = snapshotDir(dataDir);
  await ensurePrivateDir(dir);
  const createdAt = now();
  const stamp = createdAt.toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `poruch-${stamp}${SUFFIX}`);
  const started = Date.now();
  let counts: RowCounts;
  let bytes: number;
  let pauseMs: number;
  let stage: SnapshotFailure['stage'] = 'snapshot';
  try {
    ({ bytes, pauseMs } = await dumpOnline(client, path.join(dataDir, 'db'), file, signal));
    stage = 'verify';
    counts = await verifySnapshot(file, { dataDir, signal });
  } catch (error) {
    await fs.rm(file, { force: true });
    throw new SnapshotFailure(stage, error);
  }
  const manifest: SnapshotManifest = {
    file: path.basename(file),
    createdAt: createdAt.toISOString(),
    bytes,
    verified: true,
    counts,
  };
  await writePrivateFile(`${file}${MANIFEST}`, `${JSON.stringify(manifest, null, 2)}\n`);
  await syncDir(dir);
  await prune(dataDir, keep);
  return { file, createdAt, bytes, counts, pauseMs, ms: Date.now() - started };
}

/** Keeps the newest `keep` good snapshots; deletes older ones, unverified ones and leftovers. */
async function prune(dataDir: string, keep: number) {
  const dir = snapshotDir(dataDir);
  const good = await goodSnapshots(dataDir);
  const kept = new Set(good.slice(0, keep).map((g) => path.basename(g.path)));
  for (const name of await fs.readdir(dir)) {
    const base = name.endsWith(MANIFEST) ? name.slice(0, -MANIFEST.length) : name;
    if (!base.startsWith('poruch-') || kept.has(base)) continue;
    await fs.rm(path.join(dir, name), { force: true });
  }
}
