import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, backupDatabase } from '../db/backup.js';
import { DataDirBusyError } from '../db/lock.js';
import { loadEnv } from '../env.js';
import { AdminSocketError, requestSnapshot } from '../lib/admin-socket.js';
import { writePrivateFile } from '../lib/private-files.js';

/**
 * `pnpm backup [--out file]`: backs up the database the server is configured for (DATABASE_URL,
 * else the embedded one in DATA_DIR). PGlite with the server running (it holds DATA_DIR's lock):
 * the server takes a fresh, verified snapshot (through its admin socket) and the command copies
 * it to the file; with the server stopped the command reads the folder itself.
 * docs/operations.md § Backups.
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
  let result: { kind: string; bytes: number };
  let via = '';
  try {
    result = await backupDatabase(
      { url: env.DATABASE_URL, dataDir: path.join(env.DATA_DIR, 'db') },
      out,
    );
  } catch (error) {
    if (!(error instanceof DataDirBusyError) || error.holder.owner !== 'server') throw error;
    // The server has the folder open: it takes the snapshot.
    let answer;
    try {
      answer = await requestSnapshot(env.DATA_DIR);
    } catch (socketError) {
      if (!(socketError instanceof AdminSocketError)) throw socketError;
      throw new DataDirBusyError(error.dbDir, error.holder, socketError.message);
    }
    if (!answer.ok) throw new BackupError(answer.message);
    await writePrivateFile(out, await fs.readFile(answer.file));
    result = { kind: 'pglite', bytes: answer.bytes };
    via =
      ` from a snapshot the running server (process ${error.holder.pid}) took just now ` +
      `(${answer.file}: ${answer.counts.services} services, ${answer.counts.accounts} accounts)`;
  }
  console.log(
    `Backup of the ${result.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'} database ` +
      `written to ${out} (${(result.bytes / 1024 / 1024).toFixed(1)} MB)${via}.`,
  );
}

main().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof DataDirBusyError;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
