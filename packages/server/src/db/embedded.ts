import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { ensurePrivateDir } from '../lib/private-files.js';
import { acquireDataDirLock, type DataDirLock, type LockOwner } from './lock.js';

export interface EmbeddedOptions {
  /** Who opens it, named in the message another opener gets (`server`, `backup`…). */
  owner: LockOwner;
  /**
   * A lock on this folder the caller already holds (restore moves the old folder aside under it);
   * the caller releases it. Without it the folder is locked here and released by close().
   */
  lock?: DataDirLock;
  /** Start from this dump (`PGlite.dumpDataDir`). */
  loadDataDir?: Blob;
}

export interface Embedded {
  client: PGlite;
  /** Closes the database, then releases the folder's lock (when taken here). */
  close(): Promise<void>;
}

/**
 * The one place that opens the embedded database: a folder (`memory://` for none) with our
 * extensions. A folder is opened only under its lock (db/lock.ts), so no command can open one
 * a server (or any other process) has open; eslint keeps PGlite's constructor out of the rest
 * of the server.
 */
export async function openEmbedded(dataDir: string, options: EmbeddedOptions): Promise<Embedded> {
  const inMemory = dataDir.startsWith('memory://');
  if (options.lock && (options.lock.dbDir !== dataDir || !options.lock.held)) {
    throw new Error(`openEmbedded: the lock given is not held on ${dataDir}`);
  }
  const lock = inMemory || options.lock ? undefined : acquireDataDirLock(dataDir, options.owner);
  let client: PGlite;
  try {
    client = await PGlite.create(inMemory ? undefined : dataDir, {
      extensions: { pg_trgm, unaccent },
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    // The folder holds every password hash, session hash and generated secret: owner-only (0700),
    // also when an older version or another tool left it wider (lib/private-files.ts).
    if (!inMemory) await ensurePrivateDir(dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return {
    client,
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}
