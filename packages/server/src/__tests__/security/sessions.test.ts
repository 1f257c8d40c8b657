import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSLATIONS } from '@poruch/core';
import { accounts, sessions } from '../../db/schema.js';
import { hashToken } from '../../lib/tokens.js';
import { TestClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD, browserOf, seedWorld } from './world.js';

/**
 * What security.test.ts and auth-flow.test.ts do not already cover: the Secure flag of the
 * session cookie itself behind https, the configured lifetimes (absolute and idle, enforced on the
 * server; the clock is moved in the database instead of sleeping), and a reset that answers an
 * unknown address exactly like a known one, in time as well.
 */
describe('sessions: flags, lifetimes and expiry', () => {
  let server: TestServer;
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  beforeAll(async () => {
    server = await startTestServer({
      SESSION_DAYS: '2',
      SESSION_IDLE_HOURS: '5',
      TRUST_PROXY: 'true',
      MAIL_WORKER: 'false',
    });
  });
  afterAll(() => server?.close());

  /** Logs the owner of a fresh world in over HTTP; answers the browser and its session row. */
  async function login(headers: Record<string, string> = {}) {
    const world = await seedWorld(server, 'visitor');
    const client = new TestClient(server.url);
    await client.get('/api/v1/auth/check', { headers });
    const res = await client.post(
      '/api/v1/auth/login',
      { email: world.owner.email, password: PASSWORD },
      { headers },
    );
    expect(res.status).toBe(200);
    const token = client.cookies.get('poruch_session')!;
    const row = async () =>
      (
        await server.database.db
          .select()
          .from(sessions)
          .where(eq(sessions.tokenHash, hashToken(token)))
      )[0];
    return { client, world, token, row, line: client.setCookieLine('poruch_session')! };
  }

  const setRow = (token: string, values: { createdAt?: Date; expiresAt?: Date }) =>
    server.database.db
      .update(sessions)
      .set(values)
      .where(eq(sessions.tokenHash, hashToken(token)));

  it('marks the session cookie Secure, HttpOnly, SameSite=Lax, Path=/ behind https', async () => {
    const { line } = await login({ 'x-forwarded-proto': 'https' });
    expect(line).toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\/(;|$)/);
    // Over plain http (local development) the same cookie is not Secure, or it would be lost.
    const plain = await login();
    expect(plain.line).not.toMatch(/Secure/i);
  });

  it('keeps the cookie to the absolute lifetime and the server row to the idle one', async () => {
    const before = Date.now();
    const { line, row } = await login();
    const expires = Date.parse(/Expires=([^;]+)/i.exec(line)![1]!);
    expect(Math.abs(expires - (before + 2 * DAY))).toBeLessThan(5 * 60_000);
    const session = (await row())!;
    expect(Math.abs(session.expiresAt.getTime() - (before + 5 * HOUR))).toBeLessThan(5 * 60_000);
  });

  it('ends a session left idle past SESSION_IDLE_HOURS, on the server', async () => {
    const { client, token } = await login();
    expect((await client.get('/api/v1/my/services')).status).toBe(200);
    // Five hours pass without a request.
    await setRow(token, { expiresAt: new Date(Date.now() - 1000) });
    expect((await client.get('/api/v1/auth/check')).body.status).toBe(false);
    const mine = await client.get('/api/v1/my/services');
    expect(mine.status).toBe(401);
    expect(mine.body.errors.message).toBe('unauthorized');
  });

  it('extends an active session, but never past SESSION_DAYS from the login', async () => {
    const { client, token, row } = await login();
    // Four of the five idle hours have passed: a request moves the deadline five hours on.
    await setRow(token, { expiresAt: new Date(Date.now() + HOUR) });
    expect((await client.get('/api/v1/auth/check')).body.status).toBe(true);
    expect((await row())!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 4.9 * HOUR);

    // The login was almost two days ago: the deadline stops at the absolute end.
    const createdAt = new Date(Date.now() - 2 * DAY + HOUR);
    await setRow(token, { createdAt, expiresAt: new Date(Date.now() + 60_000) });
    expect((await client.get('/api/v1/auth/check')).body.status).toBe(true);
    const capped = (await row())!.expiresAt.getTime();
    expect(Math.abs(capped - (createdAt.getTime() + 2 * DAY))).toBeLessThan(1000);

    // Past the absolute end the session is over, even with an idle deadline still ahead.
    await setRow(token, {
      createdAt: new Date(Date.now() - 2 * DAY - 1000),
      expiresAt: new Date(Date.now() + HOUR),
    });
    expect((await client.get('/api/v1/auth/check')).body.status).toBe(false);
    expect((await client.get('/api/v1/my/services')).status).toBe(401);
  });

  it('ends the other sessions when the password changes, and keeps no old token working', async () => {
    const laptop = await login();
    const phone = await browserOf(server, {
      ...laptop.world,
      sessionToken: (await server.app.sessions.create(laptop.world.owner.id)).token,
    });
    expect((await phone.get('/api/v1/my/services')).status).toBe(200);
    const changed = await laptop.client.put('/api/v1/auth/credentials', {
      currentPassword: PASSWORD,
      newPassword: 'a different password 456',
      confirmPassword: 'a different password 456',
    });
    expect(changed.status).toBe(200);
    expect((await phone.get('/api/v1/my/services')).status).toBe(401);
    // The browser that changed it got a new session; its old token is gone too.
    expect(laptop.client.cookies.get('poruch_session')).not.toBe(laptop.token);
    expect(await laptop.row()).toBeUndefined();
    expect((await laptop.client.get('/api/v1/my/services')).status).toBe(200);
  }, 120_000);
});

describe('accounts: messages and enumeration', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ MAIL_WORKER: 'false' });
  });
  afterAll(() => server?.close());

  it('has the rate-limit message in both languages', () => {
    expect(TRANSLATIONS.ua.error.too_many_requests).toMatch(/\S/);
    expect(TRANSLATIONS.en_GB.error.too_many_requests).toMatch(/\S/);
    expect(TRANSLATIONS.ua.error.too_many_requests).not.toBe(
      TRANSLATIONS.en_GB.error.too_many_requests,
    );
  });

  it('answers a reset for an unknown address like a known one: status, body, headers and time', async () => {
    const client = new TestClient(server.url);
    await client.init();
    const known: number[] = [];
    const unknown: number[] = [];
    const shapes = new Set<string>();
    const timed = async (email: string, into: number[]) => {
      const started = performance.now();
      const res = await client.post('/api/v1/auth/reset-password', { email });
      into.push(performance.now() - started);
      const headers = [...res.headers.keys()]
        .filter((h) => !['date', 'x-request-id', 'content-length', 'set-cookie'].includes(h))
        .sort();
      shapes.add(JSON.stringify([res.status, res.body, headers]));
    };
    for (let i = 0; i < 4; i++) {
      // A new account each time: the per-address limit allows three resets an hour.
      const world = await seedWorld(server, 'visitor');
      await timed(world.owner.email, known);
      await timed(`nobody-${i}-${Date.now()}@example.org`, unknown);
    }
    expect([...shapes]).toHaveLength(1);
    expect(JSON.parse([...shapes][0]!)[1]).toEqual({ status: true });
    // A known address costs a password hash; an unknown one must cost the same, or the time tells.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(unknown)).toBeGreaterThan(median(known) / 4);
    // Only the known addresses got a temporary password.
    const rows = await server.database.db
      .select({ temp: accounts.tempPasswordHash })
      .from(accounts)
      .where(eq(accounts.firstName, 'owner'));
    expect(rows.filter((r) => r.temp !== null)).toHaveLength(4);
  }, 180_000);
});
