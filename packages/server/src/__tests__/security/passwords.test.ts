import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSLATIONS } from '@poruch/core';
import { accounts } from '../../db/schema.js';
import { hashPassword, scryptWork } from '../../lib/passwords.js';
import { TestClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD, browserOf, seedWorld } from './world.js';

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

/**
 * One limit on guesses of an account's password, whichever route checks it: login, a credentials
 * change and an account deletion share RATE_LOGIN_PER_ACCOUNT per 15 minutes. The sessions are
 * seeded (no login), so only the guesses below count.
 */
describe('password guesses: one limit per account across login, credentials and deletion', () => {
  const MAX = 6;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ MAIL_WORKER: 'false', RATE_LOGIN_PER_ACCOUNT: String(MAX) });
  });
  afterAll(() => server?.close());

  const guess = {
    deletion: (c: TestClient, password: string) =>
      c.delete('/api/v1/account', { currentPassword: password }),
    credentials: (c: TestClient, password: string) =>
      c.put('/api/v1/auth/credentials', {
        currentPassword: password,
        newPassword: 'taken over 12345',
        confirmPassword: 'taken over 12345',
      }),
    login: async (_: TestClient, password: string, email: string) => {
      // From another browser: the limit is the account's, not the session's or the cookie's.
      const stranger = new TestClient(server.url);
      await stranger.init();
      return stranger.post('/api/v1/auth/login', { email, password });
    },
  };
  const WRONG = { deletion: 400, credentials: 400, login: 401 };

  const rowOf = async (id: string) =>
    (await server.database.db.select().from(accounts).where(eq(accounts.id, id)))[0];

  it('answers 429 on every route once the guesses are spent, even to the right password', async () => {
    const victim = await seedWorld(server, 'owner');
    const other = await seedWorld(server, 'owner');
    const browser = await browserOf(server, victim);
    const before = (await rowOf(victim.owner.id))!;
    const kinds = ['deletion', 'credentials', 'login'] as const;

    const answered: string[] = [];
    for (let i = 0; i < MAX; i++) {
      const kind = kinds[i % kinds.length]!;
      const res = await guess[kind](browser, `wrong guess ${i}`, victim.owner.email);
      answered.push(`${kind} ${res.status} ${res.body.errors?.message}`);
    }
    expect(answered).toEqual(
      Array.from({ length: MAX }, (_, i) => {
        const kind = kinds[i % kinds.length]!;
        const key = kind === 'login' ? 'wrong_user_or_password' : 'wrong_current_password';
        return `${kind} ${WRONG[kind]} ${key}`;
      }),
    );

    // Spent: every route refuses, wrong or right, with the translated key and Retry-After.
    for (const kind of kinds) {
      for (const password of ['one more guess', PASSWORD]) {
        const res = await guess[kind](browser, password, victim.owner.email.toUpperCase());
        expect(res.status, `${kind} with ${password}`).toBe(429);
        expect(res.body.errors.message).toBe('too_many_requests');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
      }
    }
    expect(TRANSLATIONS.ua.error.too_many_requests).toMatch(/\S/);
    expect(TRANSLATIONS.en_GB.error.too_many_requests).toMatch(/\S/);

    // Nothing changed: the account exists with its password and e-mail, still logged in.
    const after = (await rowOf(victim.owner.id))!;
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.email).toBe(before.email);
    expect((await browser.get('/api/v1/auth/check')).body.status).toBe(true);

    // Another account is not affected: its wrong guess is answered, its right password works.
    const otherBrowser = await browserOf(server, other);
    expect((await guess.deletion(otherBrowser, 'wrong guess')).status).toBe(400);
    const changed = await otherBrowser.put('/api/v1/auth/credentials', {
      currentPassword: PASSWORD,
      newPassword: 'a new password 789',
      confirmPassword: 'a new password 789',
    });
    expect(changed.status).toBe(200);
  }, 180_000);
});
