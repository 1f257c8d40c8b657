import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { accounts, sessions } from '../db/schema.js';
import { hashToken, randomToken } from '../lib/tokens.js';

export type AccountRow = typeof accounts.$inferSelect;

export interface SessionLifetimes {
  /** From creation, however active the session (SESSION_DAYS). */
  absoluteMs: number;
  /** Since the last use (SESSION_IDLE_HOURS). */
  idleMs: number;
}

/**
 * Server-side sessions: created on login, removed on logout, credentials change and deletion.
 * `expires_at` is the idle deadline, never past `created_at` + the absolute lifetime; a use moves
 * it forward, written at most once per half idle window so reads do not all become writes.
 */
export function sessionsRepository(db: Db, { absoluteMs, idleMs }: SessionLifetimes) {
  const idle = Math.min(idleMs, absoluteMs);
  return {
    async create(accountId: string) {
      const token = randomToken();
      const now = Date.now();
      const expiresAt = new Date(now + idle);
      await db.insert(sessions).values({
        tokenHash: hashToken(token),
        accountId,
        createdAt: new Date(now),
        expiresAt,
      });
      return { token, expiresAt, cookieExpiresAt: new Date(now + absoluteMs) };
    },

    async findAccount(token: string): Promise<AccountRow | null> {
      const now = new Date();
      const tokenHash = hashToken(token);
      const rows = await db
        .select({ account: accounts, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(
          and(
            eq(sessions.tokenHash, tokenHash),
            gt(sessions.expiresAt, now),
            gt(sessions.createdAt, new Date(now.getTime() - absoluteMs)),
          ),
        )
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      // Sliding idle window: extend once half of it has passed, capped at the absolute end.
      if (row.expiresAt.getTime() - now.getTime() < idle / 2) {
        const extended = Math.min(now.getTime() + idle, row.createdAt.getTime() + absoluteMs);
        await db
          .update(sessions)
          .set({ expiresAt: new Date(extended) })
          .where(eq(sessions.tokenHash, tokenHash));
      }
      return row.account;
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
