import { eq, sql } from 'drizzle-orm';
import type { Account } from '@poruch/core';
import type { Db } from '../db/index.js';
import { accounts } from '../db/schema.js';
import type { AccountRow } from './sessions.js';

/** The API shape of an account: never the password hashes. */
export function accountToApi(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    type: row.type,
    isSuper: row.isSuper,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    locale: row.locale,
    marketingConsent: row.marketingConsent,
    createdAt: row.createdAt.toISOString(),
  };
}

/** True when a database error is a unique violation (both drivers wrap it differently). */
export function isUniqueViolation(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function accountsRepository(db: Db) {
  return {
    async findByEmail(email: string): Promise<AccountRow | null> {
      const rows = await db
        .select()
        .from(accounts)
        .where(eq(sql`lower(${accounts.email})`, email.toLowerCase()))
        .limit(1);
      return rows[0] ?? null;
    },

    async findById(id: string): Promise<AccountRow | null> {
      const rows = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /**
     * The account after the change; none when it was deleted after the caller read it (its own
     * second request, or an administrator): callers answer as for an account that is gone.
     */
    async update(
      id: string,
      values: Partial<typeof accounts.$inferInsert>,
    ): Promise<AccountRow | undefined> {
      const rows = await db
        .update(accounts)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(accounts.id, id))
        .returning();
      return rows[0];
    },
  };
}
