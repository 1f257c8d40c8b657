/**
 * Backup and restore of either database (docs/operations.md § Backups).
 *
 * - PGlite: the data folder as PGlite's own gzipped tarball (`dumpDataDir('gzip')`), restored
 *   with `loadDataDir`. It is a physical copy, so it keeps everything (extensions such as pg_trgm
 *   and unaccent, the migration journal) and restores exactly; it needs the same PGlite
 *   (PostgreSQL) major version, which the lockfile pins.
 * - PostgreSQL: `pg_dump --format=custom`, restored with `pg_restore --single-transaction`; the
 *   binaries must be at least the server's major version (PG_BIN_DIR points at them when they
 *   are not on PATH).
 *
 * The file says what it is: a gzip stream is a PGlite backup, `PGDMP` a pg_dump archive.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createPrivateFile, ensurePrivateDir } from '../lib/private-files.js';
import { openEmbedded } from './embedded.js';
import { acquireDataDirLock } from './lock.js';

export type BackupKind = 'pglite' | 'postgres';

/** Where the database is: a PostgreSQL URL, or the embedded folder (`<DATA_DIR>/db`). */
export interface BackupTarget {
  url?: string;
  dataDir: string;
}

/** A refusal or failure with a message for the operator (the CLI prints it, exit code 1). */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

/** Which kind of backup a file holds, from its first bytes. */
export async function backupKindOf(file: string): Promise<BackupKind> {
  const handle = await fs.open(file, 'r').catch(() => {
    throw new BackupError(`Cannot read the backup file ${file}.`);
  });
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
    if (head.toString('latin1') === 'PGDMP') return 'postgres';
  } finally {
    await handle.close();
  }
  throw new BackupError(
    `${file} is not a Poruch backup (neither a PGlite tarball nor a pg_dump archive).`,
  );
}

/** A PostgreSQL client program: from PG_BIN_DIR when set, else from PATH. */
function pgProgram(name: 'pg_dump' | 'pg_restore') {
  return process.env.PG_BIN_DIR ? path.join(process.env.PG_BIN_DIR, name) : name;
}

/** Runs a program; rejects with its standard error when it fails. */
function run(program: string, args: string[], password: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: password ? { ...process.env, PGPASSWORD: password } : process.env,
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${program} was not found. Install the PostgreSQL client programs ` +
                '(postgresql-client, at least the server major version) or set PG_BIN_DIR.'
            : `${program}: ${error.message}`,
        ),
      ),
    );
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${program} failed (exit ${code}):\n${stderr.trim()}`)),
    );
  });
}

/** libpq reads the password from the URL too, but a URL on the command line is visible in ps. */
function libpqEnv(url: string) {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), password };
}

/** Writes `data` to `file` through a temporary file, so a failed backup leaves no half file. */
async function writeAtomically(file: string, write: (tmp: string) => Promise<void>) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.partial-${process.pid}`;
  try {
    // Owner-only before the first byte: pg_dump and writeFile keep the mode of the file they fill.
    await createPrivateFile(tmp);
    await write(tmp);
    // A backup holds every account's personal data and password hash: owner-only.
    await fs.chmod(tmp, 0o600);
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}

/** Backs the database up into `file`; returns the kind and the file's size in bytes. */
export async function backupDatabase(
  target: BackupTarget,
  file: string,
): Promise<{ kind: BackupKind; bytes: number }> {
  if (target.url) {
    const { dbname, password } = libpqEnv(target.url);
    await writeAtomically(file, (tmp) =>
      run(
        pgProgram('pg_dump'),
        ['--format=custom', '--no-owner', `--file=${tmp}`, dbname],
        password,
      ),
    );
    return { kind: 'postgres', bytes: (await fs.stat(file)).size };
  }
  if (!(await isNonEmptyDir(target.dataDir))) {
    throw new BackupError(`There is no embedded database in ${target.dataDir} to back up.`);
  }
  const embedded = await openEmbedded(target.dataDir, { owner: 'backup' });
  try {
    const dump = await embedded.client.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    await writeAtomically(file, (tmp) => fs.writeFile(tmp, bytes));
    return { kind: 'pglite', bytes: bytes.length };
  } finally {
    await embedded.close();
  }
}

async function isNonEmptyDir(dir: string) {
  try {
    return (await fs.readdir(dir)).length > 0;
  } catch {
    return false;
  }
}

export interface RestoreOptions {
  /** Replace a database that already has data (PGlite: the old folder is kept aside). */
  force?: boolean;
}

export interface RestoreResult {
  kind: BackupKind;
  /** PGlite with --force: where the replaced folder was moved. */
  previous?: string;
  /** Accounts and services in the restored database. */
  accounts: number;
  services: number;
}

/**
 * Restores `file` into the target. Refuses a database that has data unless `force`, and
 * refuses while a server uses it (PGlite: the folder's lock; PostgreSQL: other connections).
 */
export async function restoreDatabase(
  target: BackupTarget,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const kind = await backupKindOf(file);
  if (kind === 'pglite' && target.url) {
    throw new BackupError(
      `${file} is a PGlite backup, but DATABASE_URL points at PostgreSQL. Unset DATABASE_URL to ` +
        'restore into the embedded database.',
    );
  }
  if (kind === 'postgres' && !target.url) {
    throw new BackupError(
      `${file} is a PostgreSQL (pg_dump) backup: set DATABASE_URL to the database to restore into.`,
    );
  }
  return kind === 'pglite'
    ? restorePglite(target.dataDir, file, options)
    : restorePostgres(target.url!, file, options);
}

async function restorePglite(
  dataDir: string,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  // Held from before the old folder is moved aside until the restored one is closed.
  const lock = acquireDataDirLock(dataDir, 'restore');
  try {
    let previous: string | undefined;
    if (await isNonEmptyDir(dataDir)) {
      if (!options.force) {
        throw new BackupError(
          `The embedded database ${dataDir} already exists. Restoring replaces it: run again ` +
            'with --force (the current folder is kept beside it).',
        );
      }
      previous = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await fs.rename(dataDir, previous);
      // The replaced database, kept beside: as private as the database itself.
      await ensurePrivateDir(previous);
    }
    const tarball = new Blob([await fs.readFile(file)]);
    try {
      const { client, close } = await openEmbedded(dataDir, {
        owner: 'restore',
        lock,
        loadDataDir: tarball,
      });
      try {
        return { kind: 'pglite', previous, ...(await countRows((q) => client.query(q))) };
      } finally {
        await close();
      }
    } catch (error) {
      // Put the replaced folder back: a failed restore changes nothing.
      await fs.rm(dataDir, { recursive: true, force: true });
      if (previous) await fs.rename(previous, dataDir);
      throw error instanceof BackupError
        ? error
        : new BackupError(`The restore failed: ${(error as Error).message}`);
    }
  } finally {
    lock.release();
  }
}

async function countRows(query: (q: string) => Promise<{ rows: unknown[] }>) {
  const { rows } = await query(
    'SELECT (SELECT count(*)::int FROM accounts) AS accounts, ' +
      '(SELECT count(*)::int FROM services) AS services',
  );
  const row = rows[0] as { accounts: number; services: number };
  return { accounts: Number(row.accounts), services: Number(row.services) };
}

/** How long a restore on PostgreSQL waits for other connections to the database to close. */
const OTHERS_WAIT_MS = 3000;

async function restorePostgres(
  url: string,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A server stopped a moment ago leaves its connections for a few ms more (PostgreSQL ends
    // each backend once it sees its client gone): they may close for OTHERS_WAIT_MS.
    const waitUntil = Date.now() + OTHERS_WAIT_MS;
    for (;;) {
      const { rows: others } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      if (others[0]!.n === 0) break;
      if (Date.now() >= waitUntil) {
        throw new BackupError(
          `${others[0]!.n} other connection(s) use this database (a running server?). Stop the ` +
            'servers that use it, then restore.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rows: tables } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_tables
       WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    if (tables[0]!.n > 0) {
      if (!options.force) {
        throw new BackupError(
          `The database already has ${tables[0]!.n} tables. Restoring replaces everything in ` +
            'it: run again with --force.',
        );
      }
      // Everything of ours goes: our schemas (public, drizzle) with the extensions in them.
      const { rows: schemas } = await client.query<{ name: string }>(
        `SELECT nspname AS name FROM pg_namespace
         WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'`,
      );
      await client.query('BEGIN');
      for (const s of schemas) {
        await client.query(`DROP SCHEMA ${pg.escapeIdentifier(s.name)} CASCADE`);
      }
      await client.query('CREATE SCHEMA public');
      await client.query('COMMIT');
    }
  } finally {
    await client.end();
  }
  const { dbname, password } = libpqEnv(url);
  await run(
    pgProgram('pg_restore'),
    [
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      `--dbname=${dbname}`,
      file,
    ],
    password,
  );
  const after = new pg.Client({ connectionString: url });
  await after.connect();
  try {
    return { kind: 'postgres', ...(await countRows((q) => after.query(q))) };
  } finally {
    await after.end();
  }
}
