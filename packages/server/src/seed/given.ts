/** Data a test or a bench gives, written straight into the database (`@poruch/server/testing`). */
import { count, sql } from 'drizzle-orm';
import type { ServiceInput, ServiceStatus } from '@poruch/core';
import type { Db } from '../db/index.js';
import { accounts, services, settings } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { serviceInputToRow } from '../repositories/services.js';
import { DEMO_SEED_KEY } from './demo.js';
import { seedSynthetic } from './synthetic.js';

/** Hashing is slow on purpose; a suite's partners share their password, so hash it once. */
const hashes = new Map<string, Promise<string>>();

/**
 * Given data: a partner account owning one service, written straight into the database (no
 * registration route, no welcome mail). Log in with the account's e-mail and password.
 */
export async function seedPartnerService(
  db: Db,
  account: { email: string; password: string; firstName: string },
  service: ServiceInput,
  status: ServiceStatus = 'approved',
): Promise<{ id: string; name: string }> {
  if (!hashes.has(account.password)) hashes.set(account.password, hashPassword(account.password));
  const [owner] = await db
    .insert(accounts)
    .values({
      email: account.email,
      passwordHash: await hashes.get(account.password)!,
      type: 'PARTNER',
      firstName: account.firstName,
    })
    .returning({ id: accounts.id });
  const [row] = await db
    .insert(services)
    .values({ ...serviceInputToRow(service), ownerId: owner!.id, status })
    .returning({ id: services.id, name: services.name });
  return row!;
}

/**
 * Makes a database hold `total` synthetic services without vacancies, and marks the demo
 * catalogue as seeded so a server started on it adds nothing. A database that already holds
 * that many services is kept (a second run); one with another count is emptied first. Returns
 * whether it wrote the services.
 */
export async function seedSyntheticServices(db: Db, total: number): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(services);
  if (existing?.n === total) return false;
  if (existing?.n) await db.execute(sql`TRUNCATE used_marks, reports, vacancies, services`);
  await seedSynthetic(db, { services: total, vacancies: 0 });
  await db
    .insert(settings)
    .values({ key: DEMO_SEED_KEY, value: 'synthetic' })
    .onConflictDoNothing();
  return true;
}

/**
 * Given service rows, written as they are: no input schema checks them, as with rows an older
 * version wrote. Returns their ids, in order.
 */
export async function seedServiceRows(
  db: Db,
  rows: (typeof services.$inferInsert)[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await db.insert(services).values(row).returning({ id: services.id });
    ids.push(inserted!.id);
  }
  return ids;
}
