import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, backupDatabase } from '../db/backup.js';
import { DataDirBusyError } from '../db/lock.js';
import { loadEnv } from '../env.js';

/**
 * `pnpm backup [--out file]`: backs up the database the server is configured for (DATABASE_URL,
 * else the embedded one in DATA_DIR). PGlite: stop the server first (the command refuses while
 * it runs). docs/operations.md § Backups.
 */
async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const env = loadEnv();
  // pnpm runs scripts in the package folder; a relative path means the caller's folder.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const out = path.resolve(
    cwd,
    values.out ?? `poruch-backup-${stamp}.${env.DATABASE_URL ? 'pgdump' : 'pglite.tar.gz'}`,
  );
  const { kind, bytes } = await backupDatabase(
    { url: env.DATABASE_URL, dataDir: path.join(env.DATA_DIR, 'db') },
    out,
  );
  console.log(
    `Backup of the ${kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'} database ` +
      `written to ${out} (${(bytes / 1024 / 1024).toFixed(1)} MB).`,
  );
}

main().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof DataDirBusyError;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
