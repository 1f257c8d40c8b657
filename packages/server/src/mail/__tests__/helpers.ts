import type { CategoryKey, LocaleCode, ServiceStatus } from '@poruch/core';
import type { Db } from '../../db/index.js';
import { accounts, services } from '../../db/schema.js';

/** Polls `check` until it returns a truthy value, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface OwnerSpec {
  email: string;
  locale?: LocaleCode;
  unsubscribed?: boolean;
  services: { status: ServiceStatus; category: CategoryKey | null }[];
}

/** Service owners written straight into the database (no password that works). */
export async function insertOwners(db: Db, owners: OwnerSpec[]) {
  const ids = new Map<string, string>();
  for (const o of owners) {
    const [a] = await db
      .insert(accounts)
      .values({
        email: o.email,
        passwordHash: 'not a hash',
        type: 'PARTNER',
        firstName: 'Owner',
        locale: o.locale ?? 'ua',
        unsubscribed: o.unsubscribed ?? false,
      })
      .returning({ id: accounts.id });
    ids.set(o.email, a!.id);
    if (o.services.length) {
      await db.insert(services).values(
        o.services.map((s, i) => ({
          ownerId: a!.id,
          name: `Service ${i} of ${o.email}`,
          countryCode: 'PL',
          category: s.category,
          status: s.status,
        })),
      );
    }
  }
  return ids;
}
