import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { accounts, sessions } from '../db/schema.js';
import { hashToken, randomToken } from '../lib/tokens.js';

export type AccountRow = typeof accounts.$inferSelect;

/** Server-side sessions: created on login, removed on logout, credentials change and deletion. */
export function sessionsRepository(db: Db, days: number) {
  return {
    async create(accountId: string) {
      const token = randomToken();
      const expiresAt = new Date(Date.now() + days * 86_400_000);
      await db.insert(sessions).values({ tokenHash: hashToken(token), accountId, expiresAt });
      return { token, expiresAt };
    },

    async findAccount(token: string): Promise<AccountRow | null> {
      const rows = await db
        .select({ account: accounts })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date())))
        .limit(1);
      return rows[0]?.account ?? null;
    },

    async remove(token: string) {
      await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    },

    /** Ends every session of the account (credentials change, deletion). */
    async removeAll(accountId: string) {
      await db.delete(sessions).where(eq(sessions.accountId, accountId));
    },

    async removeExpired() {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    },
  };
}
