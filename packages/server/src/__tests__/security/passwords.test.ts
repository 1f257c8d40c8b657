import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../db/schema.js';
import { hashPassword, scryptWork } from '../../lib/passwords.js';
import { TestClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Login does the same hashing work whatever the address: the time of a wrong login must not tell
 * whether an account exists, has a pending reset, or anything else. Counted, not timed: the
 * scrypt runs (and their cost) of each login over HTTP, on the real database; the timing itself is
 * bench/login.bench.ts.
 */
describe('login: the same hashing work in every case', () => {
  let server: TestServer;
  let client: TestClient;
  const RIGHT = 'the right password 1';
  const TEMPORARY = 'temporary password 2';
  let n = 0;
  let rightHash: Promise<string> | undefined;

  beforeAll(async () => {
    server = await startTestServer({ MAIL_WORKER: 'false' });
    client = new TestClient(server.url);
    await client.init();
  });
  afterAll(() => server?.close());

  /** An account in the database; answers its address. */
  async function account(values: Partial<typeof accounts.$inferInsert> = {}) {
    const email = `hashing-${++n}-${Date.now()}@example.org`;
    await server.database.db.insert(accounts).values({
      email,
      passwordHash: await (rightHash ??= hashPassword(RIGHT)),
      type: 'PARTNER',
      ...values,
    });
    return email;
  }

  /** The scrypt runs and cost of one login, and its status. */
  async function work(email: string, password: string) {
    const before = { ...scryptWork };
    const res = await client.post('/api/v1/auth/login', { email, password });
    return {
      status: res.status,
      runs: scryptWork.runs - before.runs,
      cost: scryptWork.cost - before.cost,
    };
  }

  it('runs scrypt the same number of times at the same cost for every kind of login', async () => {
    const temporary = await hashPassword(TEMPORARY);
    const hourAgo = new Date(Date.now() - 3_600_000);
    const inAnHour = new Date(Date.now() + 3_600_000);
    const known = await account();
    const admin = await account({ type: 'ADMIN', isSuper: true });
    const withReset = await account();
    // A reset as a visitor asks for it (the temporary password is mailed, not known here).
    const reset = await client.post('/api/v1/auth/reset-password', { email: withReset });
    expect(reset.status).toBe(200);
    const pending = await account({ tempPasswordHash: temporary, tempPasswordExpiresAt: inAnHour });
    const expired = await account({ tempPasswordHash: temporary, tempPasswordExpiresAt: hourAgo });
    const noExpiry = await account({ tempPasswordHash: temporary, tempPasswordExpiresAt: null });
    const malformed = await account({ passwordHash: 'not-a-hash' });

    const cases: Record<string, [string, string, number]> = {
      'unknown address': [`nobody-${Date.now()}@example.org`, RIGHT, 401],
      'unknown address, again': [`nobody-else-${Date.now()}@example.org`, 'x', 401],
      'known address, wrong password': [known, 'wrong password', 401],
      'known address, right password': [known, RIGHT, 200],
      'administrator, wrong password': [admin, 'wrong password', 401],
      'reset requested, wrong password': [withReset, 'wrong password', 401],
      'reset requested, the old password': [withReset, RIGHT, 200],
      'pending temporary, wrong password': [pending, 'wrong password', 401],
      'expired temporary, wrong password': [expired, 'wrong password', 401],
      'expired temporary, the temporary password': [expired, TEMPORARY, 401],
      'temporary without expiry, the temporary password': [noExpiry, TEMPORARY, 401],
      'malformed stored hash': [malformed, 'wrong password', 401],
      // Last: using it makes it the password.
      'pending temporary, the temporary password': [pending, TEMPORARY, 200],
    };
    const seen: Record<string, { status: number; runs: number; cost: number }> = {};
    for (const [name, [email, password]] of Object.entries(cases)) {
      seen[name] = await work(email, password);
    }
    const reference = seen['unknown address']!;
    // Two: the password and the temporary password (or the dummy hash in place of either).
    expect(reference.runs).toBe(2);
    expect(reference.cost).toBeGreaterThan(0);
    expect(seen).toEqual(
      Object.fromEntries(
        Object.entries(cases).map(([name, [, , status]]) => [name, { ...reference, status }]),
      ),
    );
    // The temporary password became the password.
    const row = (
      await server.database.db.select().from(accounts).where(eq(accounts.email, pending))
    )[0]!;
    expect(row.passwordHash).toBe(temporary);
    expect(row.tempPasswordHash).toBeNull();
  }, 120_000);
});
