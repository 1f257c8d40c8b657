/**
 * The snapshot's child process (db/snapshots.ts runChild), in one of two roles. It lowers its own
 * priority (every thread of it) first.
 *
 *   node snapshot-verify.js --gzip <file.partial>
 *
 * The writer of dumpOnline: gzips (level 1) the tar it reads on its standard input into the
 * file (created empty by the server), fsyncs it and sends `{ done: true }` or `{ error }`. The
 * server renames the file into place.
 *
 *   node snapshot-verify.js <snapshot.pglite.tar.gz> <scratch folder>
 *
 * The verifier of verifySnapshot: it unpacks the snapshot into the scratch folder as a stream
 * (never the whole folder in memory), opens it there with PGlite (which replays the snapshot's
 * WAL) and counts the rows of the main tables; it sends `{ counts }` or `{ error }` to the
 * server and exits. The server removes the scratch folder once it exits, however it ended.
 *
 * A process, not a thread of the server: a verification of 100k services unpacked 1.2 GB into a
 * worker thread's memory, and the server's checkpoints took up to 100 ms meanwhile
 * (docs/performance.md § Snapshots).
 */
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  openSync,
  writeSync,
} from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { openEmbedded } from './embedded.js';
import { COUNTED_TABLES, VERIFIER_NICE, type RowCounts } from './snapshots.js';

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

/** Gzips this process's standard input into `file` (it exists, empty) and fsyncs it. */
async function gzipStdin(file: string) {
  // Level 1: several times faster than the default, and the WAL's empty pages shrink anyway.
  await pipeline(
    process.stdin,
    createGzip({ level: 1, chunkSize: 1024 * 1024 }),
    createWriteStream(file, { flags: 'r+' }),
  );
  const handle = await fs.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Unpacks the snapshot into `scratch`, opens it there and counts the main tables' rows. */
export async function verifyUnpacked(file: string, scratch: string): Promise<RowCounts> {
  const dbDir = path.join(scratch, 'db');
  await unpackSnapshot(file, dbDir);
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

// Started as the writer or the verifier (not imported).
if (process.send && /snapshot-verify\.[jt]s$/.test(process.argv[1] ?? '')) {
  // The server went away (it stopped, or crashed): no one waits for the answer.
  process.on('disconnect', () => process.exit(1));
  const [first, second] = [process.argv[2]!, process.argv[3]!];
  lowerPriority()
    .then((): Promise<object> =>
      first === '--gzip'
        ? gzipStdin(second).then(() => ({ done: true }))
        : verifyUnpacked(first, second).then((counts) => ({ counts })),
    )
    .catch((error: unknown) => ({ error: (error as Error)?.message ?? String(error) }))
    .then((message) => process.send!(message, () => process.exit(0)));
}
