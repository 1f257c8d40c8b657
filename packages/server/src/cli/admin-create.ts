import path from 'node:path';
import { parseArgs } from 'node:util';
import { emailSchema } from '@poruch/core';
import { openDatabase } from '../db/index.js';
import { accounts } from '../db/schema.js';
import { loadEnv } from '../env.js';
import { generatePassword, hashPassword } from '../lib/passwords.js';
import { accountsRepository } from '../repositories/accounts.js';

/**
 * `pnpm admin:create --email X [--super]`: creates an administrator and prints a generated
 * password once. There is no default password anywhere.
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
  const env = loadEnv();
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: path.join(env.DATA_DIR, 'db'),
  });
  try {
    if (await accountsRepository(database.db).findByEmail(email.data)) {
      console.error(`An account with the e-mail ${email.data} already exists.`);
      process.exitCode = 1;
      return;
    }
    const password = generatePassword(20);
    await database.db.insert(accounts).values({
      email: email.data,
      passwordHash: await hashPassword(password),
      type: 'ADMIN',
      isSuper: values.super ?? false,
      firstName: 'Admin',
    });
    console.log(`Administrator ${email.data}${values.super ? ' (super)' : ''} created.`);
    console.log(`Password (shown once, store it now): ${password}`);
  } finally {
    await database.close();
  }
}

await main();
