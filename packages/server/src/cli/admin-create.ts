import path from 'node:path';
import { parseArgs } from 'node:util';
import { emailSchema } from '@poruch/core';
import { openDatabase } from '../db/index.js';
import { DataDirBusyError } from '../db/lock.js';
import { loadEnv } from '../env.js';
import {
  AdminSocketError,
  createAdministrator,
  requestAdministrator,
  type CreateAdminResult,
} from '../lib/admin-socket.js';

/**
 * `pnpm admin:create --email X [--super]`: creates an administrator and prints a generated
 * password once. There is no default password anywhere. With the embedded database and the
 * server running on the same DATA_DIR, the server creates it (lib/admin-socket.ts): the command
 * never opens a folder another process has open.
 */
async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, super: { type: 'boolean', default: false } },
  });
  const email = emailSchema.safeParse(values.email ?? '');
  if (!email.success) {
    console.error('Usage: pnpm admin:create --email admin@example.org [--super]');
    process.exit(2);
  }
  const isSuper = values.super ?? false;
  const env = loadEnv();
  let result: CreateAdminResult | { ok: false; message: string };
  let via = '';
  try {
    const database = await openDatabase({
      url: env.DATABASE_URL,
      dataDir: path.join(env.DATA_DIR, 'db'),
      owner: 'admin:create',
    });
    try {
      result = await createAdministrator(database.db, { email: email.data, isSuper });
    } finally {
      await database.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirBusyError) || error.holder.owner !== 'server') throw error;
    // The server has the folder: it creates the administrator.
    try {
      result = await requestAdministrator(env.DATA_DIR, email.data, isSuper);
    } catch (socketError) {
      if (!(socketError instanceof AdminSocketError)) throw socketError;
      throw new DataDirBusyError(error.dbDir, error.holder, socketError.message);
    }
    via = ` by the running server (process ${error.holder.pid})`;
  }
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
  console.log(`Administrator ${result.email}${result.isSuper ? ' (super)' : ''} created${via}.`);
  console.log(`Password (shown once, store it now): ${result.password}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
});
