import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreDatabase } from '../db/backup.js';
import { DataDirBusyError } from '../db/lock.js';
import { loadEnv } from '../env.js';

/**
 * `pnpm restore <file> [--force]`: restores a backup of `pnpm backup` into the database the
 * server is configured for. Refuses a database with data unless --force, and refuses while a
 * server uses it. docs/operations.md § Backups.
 */
async function main() {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    console.error('Usage: pnpm restore <backup file> [--force]');
    process.exit(2);
  }
  const env = loadEnv();
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  const dataDir = path.join(env.DATA_DIR, 'db');
  const result = await restoreDatabase({ url: env.DATABASE_URL, dataDir }, file, {
    force: values.force,
  });
  console.log(
    `Restored ${file} into the ${result.kind === 'pglite' ? `embedded database ${dataDir}` : 'PostgreSQL database'}: ` +
      `${result.accounts} accounts, ${result.services} services.`,
  );
  if (result.previous) console.log(`The replaced database folder is kept at ${result.previous}.`);
}

main().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof DataDirBusyError;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
