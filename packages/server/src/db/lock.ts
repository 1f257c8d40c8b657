import fs from 'node:fs';
import path from 'node:path';

/** What holds the embedded database folder. */
export type LockOwner = 'server' | 'backup' | 'restore';

interface LockContent {
  pid: number;
  owner: LockOwner;
  since: string;
}

/** The folder is held by a live process: the message says which and what to do. */
export class DataDirBusyError extends Error {
  override readonly name = 'DataDirBusyError';
  constructor(
    readonly dbDir: string,
    readonly holder: LockContent,
  ) {
    super(
      `The embedded database ${dbDir} is in use by a ${holder.owner} (process ${holder.pid}, ` +
        `since ${holder.since}). Two processes on one PGlite folder would corrupt it: ` +
        (holder.owner === 'server'
          ? 'stop the server first, then try again.'
          : `wait for the ${holder.owner} to finish.`),
    );
  }
}

/** The lock file beside the database folder: `<DATA_DIR>/db.lock` for `<DATA_DIR>/db`. */
export const lockPath = (dbDir: string) => `${dbDir.replace(/[/\\]+$/, '')}.lock`;

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // our own stale lock (same pid after a restart, e.g. pid 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the folder, or null when it is free (a dead holder's lock is stale). */
export function lockHolder(dbDir: string): LockContent | null {
  let content: LockContent;
  try {
    content = JSON.parse(fs.readFileSync(lockPath(dbDir), 'utf8')) as LockContent;
  } catch {
    return null;
  }
  return Number.isInteger(content.pid) && alive(content.pid) ? content : null;
}

/**
 * Takes the embedded database folder for this process, or throws DataDirBusyError when a live
 * process holds it. PGlite is one process's database: the server, `pnpm backup` and
 * `pnpm restore` each take the folder before they open it. A process killed with SIGKILL leaves
 * its lock behind; the next one sees the process is gone and takes over. Returns the release.
 */
export function acquireDataDirLock(dbDir: string, owner: LockOwner): () => void {
  const file = lockPath(dbDir);
  const mine: LockContent = { pid: process.pid, owner, since: new Date().toISOString() };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 3) throw error;
      const holder = lockHolder(dbDir);
      if (holder) throw new DataDirBusyError(dbDir, holder);
      // Stale: its process is gone.
      fs.rmSync(file, { force: true });
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      const content = JSON.parse(fs.readFileSync(file, 'utf8')) as LockContent;
      if (content.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}
