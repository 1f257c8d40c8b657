import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { settings } from '../db/schema.js';

/**
 * A server-wide setting, created with `create()` the first time it is asked for. Two processes
 * starting together agree on one value: the insert does nothing on conflict and both read back
 * the row that won.
 */
export async function settingOrCreate(db: Db, key: string, create: () => string): Promise<string> {
  await db.insert(settings).values({ key, value: create() }).onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row!.value;
}
