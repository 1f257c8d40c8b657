/**
 * Online snapshots of the embedded database (docs/operations.md § Snapshots and recovery).
 *
 * A snapshot is taken while the server serves, as PostgreSQL's crash recovery would rebuild it:
 * pg_control as it is at the start (it names the last checkpoint), a copy of the data folder's
 * files, then the WAL from that checkpoint's redo point to what was written by the end of the
 * copy. Opening the snapshot replays that WAL, which puts right every page that changed during
 * the copy, as for any PostgreSQL base backup: with full-page writes on, the first change of a
 * page after a checkpoint logs the whole page. The WAL is read after the data files (a page
 * reaches its file only after the WAL of its changes), and a temporary replication slot keeps it
 * from being recycled by the checkpoints taken meanwhile (db/checkpoints.ts). No checkpoint of its
 * own: `pg_backup_start` would write every page changed since the last one while it holds PGlite.
 *
 * The server's thread does only three small calls to PGlite (the slot, the WAL's end, the slot
 * dropped) and reads pg_control. Everything else runs in the snapshot helper, a child process at
 * a low priority started once with the server (SnapshotHelper, db/snapshot-child.ts): the copy of
 * the files, its gzip and fsync, the verification (in a process the helper starts) and
 * BACKUP_COMMAND. Starting a process from the server holds its thread in proportion to its
 * memory, so the server starts none while it serves.
 *
 * The file is a gzipped tarball in the layout of PGlite's `dumpDataDir`, so `pnpm restore` and
 * `loadDataDir` read it like any PGlite backup. The helper writes it to a temporary name and
 * syncs it; the server renames it; then it is opened in a scratch instance whose row counts go
 * into a manifest beside it (`<file>.json`, written the same way). Only a snapshot with a
 * manifest counts as good: `pnpm restore --latest` and the start-up refusal name the newest one.
 */
import fs from 'node:fs/promises';
import { fork, type ChildProcess } from 'node:child_process';
import { constants as fsConstants, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

const CONTROL_FILE = 'global/pg_control';

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
 * its three small calls held PGlite (with the read of pg_control, all this process's thread does
 * for it: the copy runs in the snapshot helper).
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
  signal?.throwIfAborted();
  // The slot keeps the WAL from the last checkpoint's redo point on (checkpoints during the copy
  // would recycle it); replay of the copy starts at that point, so its segment is the first one.
  const start = await call<{ wal: string; fpw: string }>(
    `SELECT pg_walfile_name(c.redo_lsn) AS wal, current_setting('full_page_writes') AS fpw
       FROM pg_create_physical_replication_slot('${SLOT}', true, true), pg_control_checkpoint() c`,
  );
  const tmp = `${file}.partial`;
  try {
    if (start.fpw !== 'on') {
      throw new Error('full_page_writes is off: an online snapshot needs it on');
    }
    // pg_control as it is now, before any data file: it names that checkpoint. A checkpoint
    // during the copy writes a newer one, whose redo point may come after pages copied earlier.
    // Read at once, on PGlite's own thread: no write of it can be under way.
    const control = readFileSync(path.join(dbDir, CONTROL_FILE)).toString('base64');
    await createPrivateFile(tmp);
    await snapshotHelper.run(
      { job: 'copy', dbDir, file: tmp, control, startWal: start.wal },
      {
        signal,
        // The WAL's end, asked once the data files are copied.
        ask: async () =>
          (
            await call<{ wal: string }>(
              'SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS wal',
            )
          ).wal,
      },
    );
    await fs.rename(tmp, file);
    await syncDir(path.dirname(file));
    return { bytes: (await fs.stat(file)).size, pauseMs };
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  } finally {
    await call(`SELECT pg_drop_replication_slot('${SLOT}')`).catch(() => {});
  }
}

/**
 * The nice value the snapshot's processes (the helper, the verifier and BACKUP_COMMAND) run at:
 * the server goes first when they want a core.
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
    // By the helper, a piece at a time: a burst of disk work would hold the server's writes.
    await snapshotHelper.run({ job: 'remove', dir: path.join(verifyDir(dataDir), name) });
  }
}

/**
 * The snapshot's child program (db/snapshot-child.ts) and the node options that run it:
 * `snapshot-child.js` beside the bundle (dist), else the TypeScript source through tsx's loader
 * (development and tests).
 */
async function childProgram(): Promise<{ program: string; execArgv: string[] }> {
  const js = new URL('./snapshot-child.js', import.meta.url);
  const exists = await fs.access(js).then(
    () => true,
    () => false,
  );
  if (exists) return { program: fileURLToPath(js), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return {
    program: fileURLToPath(new URL('./snapshot-child.ts', import.meta.url)),
    execArgv: ['--import', tsx],
  };
}

/** A job of the snapshot helper (db/snapshot-child.ts, where each is described). */
export type HelperJob = { id: number } & (
  | { job: 'copy'; dbDir: string; file: string; control: string; startWal: string }
  | { job: 'verify'; file: string; scratch: string }
  | { job: 'command'; command: string; file: string; timeoutMs: number }
  | { job: 'remove'; dir: string }
);
type Job = HelperJob extends infer J ? (J extends HelperJob ? Omit<J, 'id'> : never) : never;

/** What the helper sends about job `id`: its end (`done`, `counts`, `error`) or a question. */
export interface HelperAnswer {
  id: number;
  done?: true;
  counts?: RowCounts;
  error?: string;
  need?: 'end';
}

/** A job sent to the helper, until it answers. */
interface PendingJob {
  /** The helper it was sent to. */
  child: ChildProcess;
  settle: (answer: HelperAnswer) => void;
  ask?: (need: string) => Promise<string>;
  /** Why `ask` failed: the job was cancelled for it, and fails with it. */
  askFailed?: unknown;
}

/** How long a cancelled job may take to stop before the helper is killed, with all it runs. */
const CANCEL_GRACE_MS = 10_000;

/**
 * The snapshot helper of this process: a child process at VERIFIER_NICE that runs the
 * snapshots' jobs (db/snapshot-child.ts `--serve`). Started by {@link start} (the server does as
 * it starts, while its memory is small: a start holds the thread in proportion to it), again by
 * the next job after it stopped (killed, or crashed). Jobs run side by side; it never keeps this
 * process alive when no job is in hand, and it exits when this process does.
 */
export class SnapshotHelper {
  private child: Promise<ChildProcess> | null = null;
  private jobs = 0;
  private readonly pending = new Map<number, PendingJob>();

  /** Starts the helper unless it runs; resolves to its process. */
  start(): Promise<ChildProcess> {
    this.child ??= this.spawn();
    return this.child;
  }

  private async spawn(): Promise<ChildProcess> {
    const { program, execArgv } = await childProgram();
    const child = fork(program, ['--serve'], {
      execArgv,
      // Its own errors (a crash's stack) go to the server's standard error.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    // At once, before it starts its threads (they inherit it); the child lowers any it started.
    try {
      if (child.pid) os.setPriority(child.pid, VERIFIER_NICE);
    } catch {
      // Not allowed here: the child tries too.
    }
    let ended = false;
    const gone = (why: string) => {
      if (ended) return; // 'error' and 'exit' may both come
      ended = true;
      this.child = null;
      for (const [id, job] of this.pending) {
        if (job.child !== child) continue;
        this.pending.delete(id);
        job.settle({ id, error: why });
      }
    };
    child.once('error', (error) => gone(`the snapshot helper did not start: ${error.message}`));
    child.once('exit', (code, signal) =>
      gone(`the snapshot helper stopped (${signal ? `signal ${signal}` : `exit ${code}`})`),
    );
    child.on('message', (answer: HelperAnswer) => {
      const job = this.pending.get(answer.id);
      if (!job) return;
      if (answer.need) {
        const reply = (message: object) => child.send({ id: answer.id, ...message }, () => {});
        (job.ask ?? (() => Promise.reject(new Error(`nothing answers ${answer.need}`))))(
          answer.need,
        ).then(
          (value) => reply({ answer: value }),
          (error: unknown) => {
            job.askFailed = error;
            reply({ abort: true });
          },
        );
        return;
      }
      this.pending.delete(answer.id);
      job.settle(answer);
    });
    this.idle(child);
    return child;
  }

  /** Keeps this process alive only while a job is in hand. */
  private idle(child: ChildProcess) {
    if (this.pending.size) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  /**
   * Runs `job` in the helper and resolves to its answer; rejects with its error, or with how the
   * helper stopped. `ask` answers the helper's questions (the copy's WAL end). An abort cancels
   * the job and settles once nothing of it runs any more.
   */
  async run(
    job: Job,
    { signal, ask }: { signal?: AbortSignal; ask?: (need: string) => Promise<string> } = {},
  ): Promise<HelperAnswer> {
    signal?.throwIfAborted();
    const child = await this.start();
    const id = ++this.jobs;
    const pending: PendingJob = { child, settle: () => {}, ask };
    const answered = new Promise<HelperAnswer>((settle) => {
      pending.settle = settle;
    });
    this.pending.set(id, pending);
    if (!child.connected) {
      // It stopped between its start and now: its 'exit' settled the jobs it had.
      this.pending.delete(id);
      pending.settle({ id, error: 'the snapshot helper stopped' });
    }
    this.idle(child);
    child.send({ id, ...job }, () => {}); // a closed channel: 'exit' settles it
    let killer: NodeJS.Timeout | undefined;
    const cancel = () => {
      child.send({ id, abort: true }, () => {});
      // Not stopped in time (a disk that hangs): the helper goes, with everything it runs.
      killer = setTimeout(() => child.kill('SIGKILL'), CANCEL_GRACE_MS);
    };
    signal?.addEventListener('abort', cancel);
    try {
      const answer = await answered;
      signal?.throwIfAborted();
      if (pending.askFailed) throw pending.askFailed;
      if (answer.error) throw new Error(answer.error);
      return answer;
    } finally {
      signal?.removeEventListener('abort', cancel);
      clearTimeout(killer);
      this.idle(child);
    }
  }
}

/** This process's snapshot helper. */
export const snapshotHelper = new SnapshotHelper();

/**
 * Verifies a snapshot in a process at a low priority (the helper starts it, db/snapshot-child.ts):
 * it unpacks the file into a scratch folder under `DATA_DIR/backups/.verify`, opens it there
 * with PGlite and counts the rows of the main tables. Rejects when it does not open or a table
 * cannot be read. The scratch folder is removed once that process has exited, whatever the
 * outcome; an abort kills it.
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
    const { counts } = await snapshotHelper.run({ job: 'verify', file, scratch }, { signal });
    if (!counts) throw new Error('the verifier sent no counts');
    return counts;
  } finally {
    // The helper removed it, unless it stopped meanwhile (then the next helper does).
    if (existsSync(scratch)) {
      await snapshotHelper
        .run({ job: 'remove', dir: scratch })
        .catch(() => fs.rm(scratch, { recursive: true, force: true }));
    }
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
