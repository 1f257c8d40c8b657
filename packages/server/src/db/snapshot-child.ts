/**
 * The snapshot's child processes (db/snapshots.ts), the server's hands for everything a snapshot
 * does besides its three small calls to PGlite. Each lowers its own priority (every thread of it)
 * first.
 *
 *   node snapshot-child.js --serve
 *
 * The helper: one per server, started with it (SnapshotHelper) and kept until it stops. It takes
 * jobs over its IPC channel, one message each, and answers each with `{ id, done }`, `{ id, counts
 * }` or `{ id, error }`:
 * - `copy`: the snapshot's copy (dumpOnline). It reads the data folder's files, asks the server
 *   for the WAL's end (`{ id, need: 'end' }`, answered `{ id, answer }`), reads the WAL up to it,
 *   and writes the gzipped tar into the file the server created, then fsyncs it. The server
 *   renames it into place.
 * - `verify`: starts the verifier below, relays its counts, and kills it on `abort`; then removes
 *   its scratch folder (removeGently), whatever the outcome.
 * - `remove`: removes a folder the same way (a verification's leftovers).
 * - `command`: runs BACKUP_COMMAND with the snapshot's path (runBackupCommand).
 * - `abort`: stops job `id` (its answer is then an error) and answers once nothing of it runs.
 *
 *   node snapshot-child.js <snapshot.pglite.tar.gz> <scratch folder>
 *
 * The verifier: it unpacks the snapshot into the scratch folder as a stream (never the whole
 * folder in memory), opens it there with PGlite (which replays the snapshot's WAL) and counts the
 * rows of the main tables; it sends `{ counts }` or `{ error }` to its parent and exits. A process
 * of its own, not the helper: PGlite's memory (1.2 GB for 100k services unpacked in memory) goes
 * with it.
 *
 * Why processes, and why the helper is started once: starting a process from the server copies
 * its page tables, which holds the server's thread in proportion to its memory (110-155 ms at
 * 1.1 GB here), while this small helper starts a verifier or a command in a few ms on its own
 * thread. The copy's reads and gzip in the server's process waited for turns of its busy event
 * loop and took a core the server's thread then had to wait for (docs/performance.md §
 * Snapshots).
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  fdatasyncSync,
  mkdirSync,
  openSync,
  writeSync,
} from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip, createGzip } from 'node:zlib';
import {
  COUNTED_TABLES,
  VERIFIER_NICE,
  type HelperAnswer,
  type HelperJob,
  type RowCounts,
} from './snapshots.js';

/**
 * Lowers the priority of every thread of this process (on Linux a nice value is a thread's,
 * and V8's and libuv's threads started before this call keep their own); threads started later
 * inherit it.
 */
async function lowerPriority() {
  let tids: number[] = [];
  try {
    tids = (await fs.readdir('/proc/self/task')).map(Number);
  } catch {
    // No /proc: this thread only.
  }
  for (const tid of tids.length ? tids : [0]) {
    try {
      os.setPriority(tid, VERIFIER_NICE);
    } catch {
      // Not allowed, or the thread ended: it runs at the usual priority.
    }
  }
}

/** The value of a NUL- or space-terminated octal field. */
const octal = (b: Buffer) => parseInt(b.toString('latin1').replace(/[\0 ].*$/s, '') || '0', 8);

/**
 * Unpacks a gzipped ustar archive (as dumpOnline writes it) into `dir`, one piece after the
 * other. Only files and folders; a name that would leave `dir` is refused. The writes are
 * synchronous: this process does nothing else meanwhile, and a folder has a thousand small files.
 */
export async function unpackSnapshot(file: string, dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let pending: Buffer = Buffer.alloc(0);
  let fd: number | null = null;
  let left = 0; // bytes of the current file still to come
  let skip = 0; // padding after it
  let unflushed = 0; // bytes written since the last flush
  const root = path.resolve(dir);
  const target = (name: string) => {
    const full = path.resolve(root, `.${path.posix.normalize(`/${name}`)}`);
    if (full !== root && !full.startsWith(`${root}${path.sep}`)) {
      throw new Error(`the snapshot names a file outside its folder: ${name}`);
    }
    return full;
  };
  try {
    for await (const chunk of createReadStream(file).pipe(createGunzip())) {
      pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
      for (;;) {
        if (left > 0) {
          if (!pending.length) break;
          const piece = pending.subarray(0, Math.min(left, pending.length));
          writeSync(fd!, piece);
          // Flushed as it goes (see FLUSH_EVERY), though the folder is thrown away afterwards.
          unflushed += piece.length;
          if (unflushed >= FLUSH_EVERY) {
            fdatasyncSync(fd!);
            unflushed = 0;
          }
          left -= piece.length;
          pending = pending.subarray(piece.length);
          if (left > 0) break;
          closeSync(fd!);
          fd = null;
        }
        if (skip > 0) {
          const n = Math.min(skip, pending.length);
          skip -= n;
          pending = pending.subarray(n);
          if (skip > 0) break;
        }
        if (pending.length < 512) break;
        const header = pending.subarray(0, 512);
        pending = pending.subarray(512);
        if (header.every((byte) => byte === 0)) continue; // end of archive
        const str = (at: number, len: number) =>
          header
            .subarray(at, at + len)
            .toString('utf8')
            .replace(/\0.*$/s, '');
        const prefix = str(345, 155);
        const name = prefix ? `${prefix}/${str(0, 100)}` : str(0, 100);
        const size = octal(header.subarray(124, 136));
        const mode = octal(header.subarray(100, 108)) || 0o600;
        const type = String.fromCharCode(header[156]!);
        if (type === '5') {
          mkdirSync(target(name), { recursive: true, mode: 0o700 });
        } else if (type === '0' || type === '\0') {
          const full = target(name);
          mkdirSync(path.dirname(full), { recursive: true, mode: 0o700 });
          fd = openSync(full, 'w', mode & 0o700);
          left = size;
          if (left === 0) {
            closeSync(fd);
            fd = null;
          }
        } else {
          left = 0;
          skip = size; // other entries (links…): a snapshot has none
        }
        skip += (512 - (size % 512)) % 512;
      }
    }
    if (left > 0) throw new Error('the snapshot ends in the middle of a file');
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Data-folder entries a snapshot leaves out: recreated at start, or the server's own. */
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
  CONTROL_FILE, // as the server read it before the copy, see dumpOnline
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

/** Tar entries of the files under `root/rel`, directories first; `include` decides what goes in. */
async function* tarTree(
  root: string,
  rel: string,
  include: (rel: string, dir: boolean) => 'all' | 'dir-only' | 'skip',
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    const full = path.join(root, child);
    signal.throwIfAborted();
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
 * The snapshot's tar (the layout of PGlite's `dumpDataDir`): the data folder's files, then
 * pg_control as the server read it before the copy, then the WAL from `startWal` to the segment
 * `end()` names, asked only after the data files (a page reaches its file only after the WAL of
 * its changes). Older segments and the recycled ones ahead are not needed.
 */
async function* snapshotTar(
  job: Extract<HelperJob, { job: 'copy' }>,
  end: () => Promise<string>,
  signal: AbortSignal,
) {
  yield* tarTree(
    job.dbDir,
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
  const control = Buffer.from(job.control, 'base64');
  yield tarHeader(`/${CONTROL_FILE}`, control.length, 0o600, Date.now(), false);
  yield control;
  yield pad(control.length);
  const endWal = await end();
  yield* tarTree(
    job.dbDir,
    '',
    (rel, dir) => {
      if (rel === 'pg_wal') return 'all';
      if (!rel.startsWith('pg_wal/') || rel.startsWith('pg_wal/archive_status/')) return 'skip';
      if (dir) return 'dir-only';
      const name = rel.slice('pg_wal/'.length);
      if (!/^[0-9A-F]{24}$/.test(name)) return 'all';
      return name >= job.startWal && name <= endWal ? 'all' : 'skip';
    },
    signal,
  );
  yield Buffer.alloc(1024); // end of archive
}

/**
 * How much a snapshot's processes write before they flush it to the disk (fdatasync). A large
 * write flushed at once (a 220 MB snapshot's fsync, or a verifier's 1.2 GB left to the kernel's
 * writeback) makes ext4 write it all in one journal commit, and the server's own writes (its
 * checkpoints) waited for that commit: a checkpoint asleep for 141 ms during a copy at 100k
 * services. Flushed every 4 MB (about 10 ms of this disk), no commit holds them long.
 */
export const FLUSH_EVERY = 4 * 1024 * 1024;

/** Gzips `chunks` (level 1) into `file` (it exists, empty), flushed as it goes and fsynced. */
async function writeGzipped(file: string, chunks: AsyncIterable<Buffer>, signal: AbortSignal) {
  const handle = await fs.open(file, 'r+');
  try {
    let unflushed = 0;
    // Level 1: several times faster than the default, and the WAL's empty pages shrink anyway.
    await pipeline(
      Readable.from(chunks),
      createGzip({ level: 1, chunkSize: 1024 * 1024 }),
      async (gzipped: AsyncIterable<Buffer>) => {
        for await (const piece of gzipped) {
          await handle.write(piece);
          unflushed += piece.length;
          if (unflushed >= FLUSH_EVERY) {
            await handle.datasync();
            unflushed = 0;
          }
        }
      },
      { signal },
    );
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Runs BACKUP_COMMAND with the snapshot's path as "$1" (appended to the command when it does not
 * use "$1"), in its own process group, killed after `timeoutMs` or on `signal`. Rejects on a
 * failure.
 */
export function runBackupCommand(
  command: string,
  file: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const script = /\$\{?1\b/.test(command) ? command : `${command} "$1"`;
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script, 'poruch-backup', file], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
      env: { ...process.env, PORUCH_SNAPSHOT: file },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString();
    });
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    signal?.addEventListener('abort', killGroup);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', killGroup);
    };
    child.on('error', (error) => {
      done();
      reject(error);
    });
    child.on('close', (code, sig) => {
      done();
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0 && !timedOut) resolve();
      else
        reject(
          new Error(
            timedOut
              ? `BACKUP_COMMAND did not finish in ${timeoutMs / 1000} s and was killed`
              : `BACKUP_COMMAND failed (${sig ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ''}`,
          ),
        );
    });
  });
}

/** How much of a file {@link removeGently} frees at a time. */
const REMOVE_STEP = 32 * 1024 * 1024;

/**
 * Removes a folder without a burst of disk work: each large file is cut down 32 MB at a time,
 * each cut synced (a journal commit that frees those blocks, and discards them on a file system
 * mounted with `discard`), then unlinked. Removed at once, a verifier's 1.2 GB scratch folder
 * (100k services) kept the disk busy long enough that the server's own writes waited 245 ms
 * (block-layer write throttling and directory lookups, seen in its thread's wait channel).
 */
export async function removeGently(dir: string): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await removeGently(full);
      continue;
    }
    if (entry.isFile()) {
      const handle = await fs.open(full, 'r+');
      try {
        let { size } = await handle.stat();
        while (size > REMOVE_STEP) {
          size -= REMOVE_STEP;
          await handle.truncate(size);
          await handle.sync();
        }
      } finally {
        await handle.close();
      }
    }
    await fs.rm(full, { force: true });
  }
  await fs.rm(dir, { recursive: true, force: true });
}

/**
 * Runs the verifier (this program with the snapshot and the scratch folder) and resolves to its
 * counts. `signal` kills it; the promise settles only once it has exited.
 */
function runVerifier(file: string, scratch: string, signal: AbortSignal): Promise<RowCounts> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [file, scratch], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const kill = () => child.kill('SIGKILL');
  signal.addEventListener('abort', kill);
  type Sent = { counts?: RowCounts; error?: string };
  let message: Sent | undefined;
  child.on('message', (m) => (message ??= m as Sent));
  return new Promise<RowCounts>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, sig) => {
      signal.removeEventListener('abort', kill);
      if (signal.aborted) reject(signal.reason);
      else if (message?.counts) resolve(message.counts);
      else if (message?.error) reject(new Error(message.error));
      else {
        const last = stderr.trim().split('\n').pop();
        reject(
          new Error(
            `the verifier stopped (${sig ? `signal ${sig}` : `exit ${code}`})${last ? `: ${last}` : ''}`,
          ),
        );
      }
    });
  });
}

/** The helper: takes jobs from the server until it goes away (see the top of this file). */
function serve() {
  const send = (answer: HelperAnswer) => process.send!(answer);
  /** The jobs in hand, by id. */
  const jobs = new Map<number, AbortController>();
  /** The server's answers to this helper's questions, by job. */
  const asked = new Map<number, (answer: string) => void>();
  const run = async (job: HelperJob, signal: AbortSignal): Promise<Omit<HelperAnswer, 'id'>> => {
    switch (job.job) {
      case 'copy': {
        const end = () =>
          new Promise<string>((resolve, reject) => {
            signal.throwIfAborted();
            signal.addEventListener('abort', () => reject(signal.reason));
            asked.set(job.id, resolve);
            send({ id: job.id, need: 'end' });
          });
        await writeGzipped(job.file, snapshotTar(job, end, signal), signal);
        return { done: true };
      }
      case 'verify':
        try {
          return { counts: await runVerifier(job.file, job.scratch, signal) };
        } finally {
          await removeGently(job.scratch); // whatever the outcome
        }
      case 'remove':
        await removeGently(job.dir);
        return { done: true };
      case 'command':
        await runBackupCommand(job.command, job.file, job.timeoutMs, signal);
        return { done: true };
    }
  };
  process.on(
    'message',
    (message: HelperJob | { id: number; answer: string } | { id: number; abort: true }) => {
      if ('answer' in message) {
        asked.get(message.id)?.(message.answer);
        asked.delete(message.id);
      } else if ('abort' in message) {
        const job = jobs.get(message.id);
        if (!job) return send({ id: message.id, error: 'no such job' });
        job.abort(new Error('cancelled'));
      } else {
        const stop = new AbortController();
        jobs.set(message.id, stop);
        void run(message, stop.signal)
          .then(
            (answer) => send({ id: message.id, ...answer }),
            (error: unknown) =>
              send({
                id: message.id,
                error: stop.signal.aborted
                  ? 'cancelled'
                  : ((error as Error)?.message ?? String(error)),
              }),
          )
          .finally(() => jobs.delete(message.id));
      }
    },
  );
}

/** Unpacks the snapshot into `scratch`, opens it there and counts the main tables' rows. */
export async function verifyUnpacked(file: string, scratch: string): Promise<RowCounts> {
  const dbDir = path.join(scratch, 'db');
  await unpackSnapshot(file, dbDir);
  // Loaded here, not at the top: the helper runs the same file and never needs PGlite.
  const { openEmbedded } = await import('./embedded.js');
  const embedded = await openEmbedded(dbDir, { owner: 'snapshot verification' });
  try {
    const counts = {} as RowCounts;
    for (const table of COUNTED_TABLES) {
      const { rows } = await embedded.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table}`,
      );
      counts[table] = Number(rows[0]!.n);
    }
    return counts;
  } finally {
    await embedded.close();
  }
}

// Started as the helper or the verifier (not imported).
if (process.send && /snapshot-child\.[jt]s$/.test(process.argv[1] ?? '')) {
  // The server (or the helper) went away: no one waits for an answer.
  process.on('disconnect', () => process.exit(1));
  const [first, second] = [process.argv[2]!, process.argv[3]!];
  if (first === '--serve') {
    void lowerPriority().then(serve);
  } else {
    lowerPriority()
      .then(() => verifyUnpacked(first, second).then((counts) => ({ counts })))
      .catch((error: unknown) => ({ error: (error as Error)?.message ?? String(error) }))
      .then((message) => process.send!(message, () => process.exit(0)));
  }
}
