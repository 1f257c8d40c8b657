import { and, asc, desc, eq } from 'drizzle-orm';
import { PoruchError, type AdminRole, type Administrator } from '@poruch/core';
import type { Db } from '../db/index.js';
import { accounts } from '../db/schema.js';
import { audit, type Executor } from './catalogue.js';
import type { AccountRow } from './sessions.js';

/** Every administrator, super administrators first, then by name. */
export async function listAdministrators(db: Executor): Promise<Administrator[]> {
  const rows = await db
    .select({
      id: accounts.id,
      email: accounts.email,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      isSuper: accounts.isSuper,
      createdAt: accounts.createdAt,
    })
    .from(accounts)
    .where(eq(accounts.type, 'ADMIN'))
    .orderBy(desc(accounts.isSuper), asc(accounts.firstName), asc(accounts.email));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/**
 * Locks every super administrator's row (in id order, so two callers never deadlock) and refuses
 * with 409 `last_super_admin` when `accountId` is the only one. Call it inside the transaction
 * that takes the account's super rights away (demotion, removal, deletion): a second transaction
 * doing the same waits here until the first commits, then sees one super administrator fewer.
 */
export async function keepOneSuperAdmin(tx: Executor, accountId: string): Promise<void> {
  const supers = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.type, 'ADMIN'), eq(accounts.isSuper, true)))
    .orderBy(asc(accounts.id))
    .for('update');
  if (supers.some((s) => s.id === accountId) && !supers.some((s) => s.id !== accountId)) {
    throw new PoruchError(409, 'last_super_admin');
  }
}

const roleOf = (row: Pick<AccountRow, 'type' | 'isSuper'>): AdminRole =>
  row.type !== 'ADMIN' ? 'none' : row.isSuper ? 'super' : 'admin';

const ACTIONS = { super: 'admin.promote', admin: 'admin.demote', none: 'admin.remove' } as const;

/**
 * Makes an administrator a super administrator, a plain administrator, or an ordinary partner
 * account (`none`), audited, in one transaction. Never leaves no super administrator. Only
 * administrators are changed: any other account is 404. The same role again changes nothing.
 */
export async function changeAdminRole(
  db: Db,
  actorId: string,
  accountId: string,
  role: AdminRole,
): Promise<AccountRow> {
  return db.transaction(async (tx) => {
    if (role !== 'super') await keepOneSuperAdmin(tx, accountId);
    const [row] = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.type, 'ADMIN')))
      .for('update');
    if (!row) throw new PoruchError(404, 'resource_was_not_found');
    const from = roleOf(row);
    if (from === role) return row;
    const [updated] = await tx
      .update(accounts)
      .set({
        type: role === 'none' ? 'PARTNER' : 'ADMIN',
        isSuper: role === 'super',
        updatedAt: new Date(),
      })
      .where(eq(accounts.id, accountId))
      .returning();
    await audit(tx, actorId, ACTIONS[role], 'account', accountId, { from, to: role });
    return updated!;
  });
}
