import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What holds the embedded database folder: `server`, `backup`, `restore`, `admin:create`,
 * `seed:synthetic`, or whatever a caller of openDatabase names itself.
 */
export type LockOwner = string;

/** The lock file's content: who holds the folder. */
export interface LockContent {
  pid: number;
  owner: LockOwner;
  since: string;
  /** Host name, for the message only (a recreated container has a new one). */
  host?: string;
  /**
   * The holder's start time (field 22 of /proc/<pid>/stat, in clock ticks since boot) where
   * /proc exists: a live process with the lock's PID but another start time is an unrelated
   * process that got the PID after the holder died, so the lock is stale.
   */
  start?: string;
  /** Random per acquisition: tells this lock from a later one of the same PID. */
  nonce: string;
}

/** The folder is held by a live process: the message says which and what to do. */
export class DataDirBusyError extends Error {
  override readonly name = 'DataDirBusyError';
  constructor(
    readonly dbDir: string,
    readonly holder: LockContent,
    /** Set when asking the holding server failed (admin:create): why. */
    socketProblem?: string,
  ) {
    const who = `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}`;
    super(
      `The embedded database ${dbDir} is in use by a ${holder.owner} (${who}, since ` +
        `${holder.since}). Two processes on one PGlite folder would corrupt it, so this one ` +
        'does not open it: ' +
        (socketProblem
          ? `${socketProblem} If the server is still starting, try again in a moment; otherwise ` +
            `stop it (kill ${holder.pid}, or systemctl stop poruch) and run the command again.`
          : holder.owner === 'server'
            ? `stop the server first (kill ${holder.pid}, or systemctl stop poruch), then try ` +
              'again, or give this command another DATA_DIR. (pnpm admin:create works while ' +
              'the server runs: the server creates the administrator.)'
            : `wait for the ${holder.owner} (process ${holder.pid}) to finish, then try again.`),
    );
  }
}

/** The lock file beside the database folder: `<DATA_DIR>/db.lock` for `<DATA_DIR>/db`. */
export const lockPath = (dbDir: string) => `${path.resolve(dbDir).replace(/[/\\]+$/, '')}.lock`;

/** Locks this process holds: lock file → its nonce. */
const held = new Map<string, string>();

/** State and start time of a process from /proc (Linux); null where there is no /proc entry. */
function procStat(pid: number): { state: string; start: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses; the fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, start: fields[19]! };
  } catch {
    return null;
  }
}

const hasProc = fs.existsSync('/proc/self/stat');

/** Whether the process that wrote the lock still runs. */
function alive(content: LockContent, file: string): boolean {
  // Our own PID: ours if this process holds this very lock; otherwise an earlier process that had
  // the same PID (PID 1 in a restarted container) left it.
  if (content.pid === process.pid) return held.get(file) === content.nonce;
  try {
    process.kill(content.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!hasProc) return true; // no /proc (macOS): the PID alone decides
  const stat = procStat(content.pid);
  if (!stat) return false;
  if (stat.state === 'Z' || stat.state === 'X') return false; // exited, not yet reaped
  // Another process under the dead holder's PID.
  return content.start === undefined || content.start === stat.start;
}

function readLock(file: string): { raw: string; content: LockContent | null } | null {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const content = JSON.parse(raw) as LockContent;
    return { raw, content: Number.isInteger(content.pid) ? content : null };
  } catch {
    return { raw, content: null };
  }
}

/** The live holder of the folder, or null when it is free (a dead holder's lock is stale). */
export function lockHolder(dbDir: string): LockContent | null {
  const file = lockPath(dbDir);
  const lock = readLock(file);
  return lock?.content && alive(lock.content, file) ? lock.content : null;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/**
 * Removes a stale lock file, but only if it still holds `staleRaw`: takeovers are serialised by
 * `<lock>.takeover` (created exclusively), so of two processes that both found the same stale
 * lock, the second sees the first one's new lock and leaves it. Returns false when another
 * process is taking over right now (try again shortly).
 */
function removeStale(file: string, staleRaw: string, mine: string): boolean {
  const mutex = `${file}.takeover`;
  try {
    fs.writeFileSync(mutex, mine, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A taker that died inside these few lines leaves the mutex: gone after 10 s.
    const other = readLock(mutex);
    const age = Date.now() - (fs.statSync(mutex, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (other && (other.content ? !alive(other.content, mutex) : age > 10_000) && age > 1000) {
      fs.rmSync(mutex, { force: true });
    }
    return false;
  }
  try {
    if (readLock(file)?.raw === staleRaw) fs.rmSync(file, { force: true });
    return true;
  } finally {
    fs.rmSync(mutex, { force: true });
  }
}

/** A held lock on an embedded database folder. */
export interface DataDirLock {
  /** The database folder it holds. */
  readonly dbDir: string;
  /** Whether this process still holds it. */
  readonly held: boolean;
  release(): void;
}

/**
 * Takes the embedded database folder for this process, or throws DataDirBusyError when a live
 * process (this one included) holds it. PGlite is one process's database: openDatabase, backup
 * and restore take the folder before PGlite opens it (db/embedded.ts), so every command that
 * opens DATA_DIR does.
 *
 * The lock file appears whole (written beside it, then hard-linked into place, which fails if
 * it exists), so two processes starting at the same instant cannot both get it, and no process
 * ever reads a half-written lock. A holder killed with SIGKILL leaves its lock behind; the next
 * process sees the holder is gone (no such PID, a zombie, or a PID now used by a process with
 * another start time) and takes over.
 */
export function acquireDataDirLock(dbDir: string, owner: LockOwner): DataDirLock {
  const file = lockPath(dbDir);
  const ours = held.get(file);
  if (ours) {
    const content = readLock(file)?.content;
    if (content) throw new DataDirBusyError(dbDir, content);
  }
  const mine: LockContent = {
    pid: process.pid,
    owner,
    since: new Date().toISOString(),
    host: os.hostname(),
    start: procStat(process.pid)?.start,
    nonce: randomBytes(12).toString('hex'),
  };
  const raw = JSON.stringify(mine);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${mine.nonce}`;
  fs.writeFileSync(tmp, raw, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(tmp, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 200) throw error;
      }
      const current = readLock(file);
      if (!current) continue; // released meanwhile
      if (current.content && alive(current.content, file)) {
        throw new DataDirBusyError(dbDir, current.content);
      }
      // Stale (or unreadable: a lock of an older version that crashed while writing it).
      if (!removeStale(file, current.raw, raw)) sleep(10);
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  held.set(file, mine.nonce);
  const release = () => {
    if (held.get(file) !== mine.nonce) return;
    held.delete(file);
    process.off('exit', release);
    if (readLock(file)?.content?.nonce === mine.nonce) fs.rmSync(file, { force: true });
  };
  process.once('exit', release);
  return {
    dbDir,
    get held() {
      return held.get(file) === mine.nonce;
    },
    release,
  };
}
