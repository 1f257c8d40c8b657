import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreDatabase } from '../db/backup.js';
import { DataDirBusyError } from '../db/lock.js';
import { goodSnapshots, snapshotDir } from '../db/snapshots.js';
import { loadEnv } from '../env.js';

/**
 * `pnpm restore <file> [--force]`: restores a backup of `pnpm backup` into the database the
 * server is configured for. `pnpm restore --latest [--force]`: the newest good (verified)
 * snapshot in DATA_DIR/backups instead of a file. Refuses a database with data unless --force,
 * and refuses while a server uses it. docs/operations.md § Backups and § Recovery.
 */
async function main() {
  const { values, positionals } = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      latest: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  if (positionals.length !== (values.latest ? 0 : 1)) {
    console.error(
      'Usage: pnpm restore <backup file> [--force]\n   or: pnpm restore --latest [--force]',
    );
    process.exit(2);
  }
  const env = loadEnv();
  let file: string;
  if (values.latest) {
    const [latest] = await goodSnapshots(env.DATA_DIR);
    if (!latest) {
      throw new BackupError(`There is no good snapshot in ${snapshotDir(env.DATA_DIR)}.`);
    }
    file = latest.path;
    console.log(`The newest good snapshot: ${file} (taken ${latest.createdAt}).`);
  } else {
    file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  }
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
