/**
 * The server's start on the embedded database: a fresh install, or a folder that must open whole
 * (docs/operations.md § Recovery).
 *
 * - No folder (or an empty one) and no snapshot: a fresh install; the database is created (and
 *   the demo catalogue seeded, as configured).
 * - No folder but good snapshots in DATA_DIR/backups: the catalogue was lost, not never made.
 *   The server refuses rather than start empty and seed demo data in its place.
 * - A folder that will not open (a power loss or an OS crash can leave one: a torn WAL segment, a
 *   data file gone), or opens with a table's or an index's file missing: the server refuses.
 *
 * A refusal names the newest good snapshot and the exact command that restores it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './index.js';
import type { Db } from './types.js';
import { goodSnapshots, snapshotDir } from './snapshots.js';

/** The embedded database cannot be used as it is: main prints the message and exits 1. */
export class DamagedDatabaseError extends Error {
  override readonly name = 'DamagedDatabaseError';
}

/** Thrown by openDatabase when PGlite itself fails to open the folder. */
export class EmbeddedOpenError extends Error {
  override readonly name = 'EmbeddedOpenError';
  constructor(
    readonly dbDir: string,
    cause: unknown,
  ) {
    super(`PGlite could not open ${dbDir}: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
  }
}

export async function isNonEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length > 0;
  } catch {
    return false;
  }
}

/** The refusal: what is wrong, the newest good snapshot, and the command that restores it. */
export async function recoveryMessage(dataDir: string, problem: string): Promise<string> {
  const dbDir = path.join(dataDir, 'db');
  const [latest] = await goodSnapshots(dataDir);
  const force = (await isNonEmptyDir(dbDir)) ? ' --force' : '';
  const lines = [
    problem,
    'The server does not start on it, nor on an empty database in its place.',
  ];
  if (latest) {
    const c = latest.counts;
    lines.push(
      '',
      `The newest good snapshot is ${latest.path}`,
      `(taken ${latest.createdAt}: ${c.services} services, ${c.vacancies} vacancies, ` +
        `${c.accounts} accounts, ${c.reports} reports). Restore it with:`,
      '',
      `  pnpm restore --latest${force}`,
      `  (or, without the development tools: node packages/server/dist/restore.js --latest${force})`,
      '',
      `with the same DATA_DIR (${dataDir}), then start the server again.` +
        (force ? ' The damaged folder is kept beside it as db.before-restore-<time>.' : ''),
    );
  } else {
    lines.push(
      '',
      `There is no good snapshot in ${snapshotDir(dataDir)}. Restore a backup of your own with ` +
        `pnpm restore <file>${force}, or move ${dbDir} away to start a new, empty database.`,
    );
  }
  return lines.join('\n');
}

/** The data files (`base/…`, `global/…`) in the folder, as paths relative to it. */
export async function dataFiles(dbDir: string): Promise<Set<string>> {
  const found = new Set<string>();
  const walk = async (rel: string) => {
    let entries;
    try {
      entries = await fs.readdir(path.join(dbDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(child);
      else found.add(child);
    }
  };
  await walk('base');
  await walk('global');
  return found;
}

/**
 * Every table, index and sequence whose file was not in the folder before PGlite opened it
 * (`before`, from dataFiles): empty when the folder was whole. The files present before the
 * open count, because replaying the WAL at the open recreates a missing file with only the
 * pages the WAL holds, and the rest of the table would be silently gone.
 */
export async function missingRelationFiles(db: Db, before: Set<string>): Promise<string[]> {
  const result = (await db.execute(sql`
    SELECT c.relname AS name, pg_relation_filepath(c.oid) AS file
    FROM pg_class c
    WHERE c.relkind IN ('r', 'i', 'S', 't', 'm') AND c.relpersistence = 'p'
      AND pg_relation_filepath(c.oid) IS NOT NULL`)) as unknown as {
    rows: { name: string; file: string }[];
  };
  const missing: string[] = [];
  for (const { name, file } of result.rows) {
    if (!before.has(file)) missing.push(`${name} (${file})`);
  }
  return missing;
}

/**
 * Opens the server's embedded database with `open` (which runs `beforeMigrate` once the folder is
 * open, before any migration), or throws DamagedDatabaseError (see the top of this file). Other
 * errors (the folder's lock, a failed migration) pass through.
 */
export async function openEmbeddedOrRefuse(
  dataDir: string,
  open: (beforeMigrate?: (db: Db) => Promise<void>) => Promise<Database>,
): Promise<Database> {
  const dbDir = path.join(dataDir, 'db');
  if (!(await isNonEmptyDir(dbDir))) {
    if ((await goodSnapshots(dataDir)).length > 0) {
      throw new DamagedDatabaseError(
        await recoveryMessage(
          dataDir,
          `The embedded database folder ${dbDir} is missing or empty, but ${snapshotDir(dataDir)} ` +
            'holds snapshots of it: its data was lost.',
        ),
      );
    }
    return open();
  }
  const before = await dataFiles(dbDir);
  let missing: string[] = [];
  const check = async (db: Db) => {
    missing = await missingRelationFiles(db, before).catch((error: unknown) => [
      `(the check failed: ${(error as Error).message})`,
    ]);
    if (missing.length > 0) throw new DamagedDatabaseError('missing files');
  };
  try {
    return await open(check);
  } catch (error) {
    const reason =
      error instanceof EmbeddedOpenError
        ? `will not open (${(error.cause as Error)?.message ?? error.message})`
        : error instanceof DamagedDatabaseError
          ? `is damaged: the files of ${missing.length} tables or indexes are missing ` +
            `(${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})`
          : null;
    if (!reason) throw error;
    throw new DamagedDatabaseError(
      await recoveryMessage(
        dataDir,
        `The embedded database ${dbDir} ${reason}. A power loss or an operating-system crash ` +
          'can leave it so.',
      ),
    );
  }
}
