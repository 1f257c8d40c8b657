import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  startChildServer,
  throwawayPostgres,
  type ChildServer,
} from './helpers/child.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { eventually } from './helpers/scale.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!serverUrl;
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const skipReason = !onPostgres
  ? ' (skipped: needs the server-pg project, TEST_DATABASE_URL)'
  : !hasRedis
    ? ' (skipped: redis-server is not installed; .ci/run installs it)'
    : '';

/** A throwaway redis-server on a loopback port: no persistence, gone with the test. */
async function startRedis(port: number) {
  const proc: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  await eventually(async () => {
    if (probe.status !== 'ready') await probe.connect().catch(() => {});
    expect(await probe.ping()).toBe('PONG');
  }, 10_000);
  probe.disconnect();
  return {
    kill: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

const login = (client: TestClient, base: string, email: string) =>
  client.post(`${base}/api/v1/auth/login`, { email, password: 'not the password' });

describe.skipIf(skipReason !== '')(`rate limits shared through Redis${skipReason}`, () => {
  let db: Awaited<ReturnType<typeof throwawayPostgres>>;
  let redisPort: number;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let inspect: Redis;
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    inspect = new Redis(redisPort, '127.0.0.1', { maxRetriesPerRequest: 1 });
    inspect.on('error', () => {});
    db = await throwawayPostgres(serverUrl!, 'poruch_scale');
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
      MAIL_WORKER: 'false',
      RATE_LOGIN_PER_IP: '1000',
      RATE_LOGIN_PER_ACCOUNT: '3',
    };
    [a, b] = await Promise.all([startChildServer(env), startChildServer(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    inspect?.disconnect();
    await redis?.kill();
    await db?.drop();
  });

  it('two instances count one login limit together', async () => {
    const client = new TestClient(a.url);
    await client.init();
    const email = `victim-${Date.now()}@example.org`;
    // 3 per account: two attempts on A and one on B are answered; the 4th is refused on B,
    // where only two arrived (each process alone would still allow one more).
    expect((await login(client, a.url, email)).status).toBe(401);
    expect((await login(client, a.url, email)).status).toBe(401);
    expect((await login(client, b.url, email)).status).toBe(401);
    const refused = await login(client, b.url, email);
    expect(refused.status).toBe(429);
    expect(refused.body.errors.message).toBe('too_many_requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(client, a.url, email)).status).toBe(429);

    // The counters live in Redis, under hashed keys (no e-mail or IP in the clear), and expire.
    const keys = await inspect.keys('poruch:rl:*');
    expect(keys.length).toBeGreaterThanOrEqual(2); // per account and per IP
    for (const key of keys) {
      expect(key).not.toContain('@');
      expect(key).not.toContain('127.0.0.1');
      const ttl = await inspect.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    }
    const counts = await Promise.all(keys.map((k) => inspect.get(k)));
    expect(counts.map(Number)).toContain(5);
  });

  it('two instances count one limit on password guesses across login, credentials and deletion', async () => {
    const owner = new TestClient(a.url);
    await owner.init();
    const body = registration();
    expect((await owner.post(`${a.url}/api/v1/auth/register`, body)).status).toBe(201);
    const { email, password } = body.account;
    const wrong = { currentPassword: 'not the password' };
    // 3 per account, the session's checks and the login form's together, whichever instance.
    expect((await owner.delete(`${a.url}/api/v1/account`, wrong)).status).toBe(400);
    const change = {
      ...wrong,
      newPassword: 'taken over 12345',
      confirmPassword: 'taken over 12345',
    };
    expect((await owner.put(`${b.url}/api/v1/auth/credentials`, change)).status).toBe(400);
    expect((await login(owner, a.url, email)).status).toBe(401);
    const refused = await owner.delete(`${b.url}/api/v1/account`, { currentPassword: password });
    expect(refused.status).toBe(429);
    expect(refused.body.errors.message).toBe('too_many_requests');
    const stranger = new TestClient(a.url);
    await stranger.init();
    expect((await stranger.post(`${a.url}/api/v1/auth/login`, { email, password })).status).toBe(
      429,
    );
    // Still there, still logged in.
    expect((await owner.get(`${b.url}/api/v1/auth/check`)).body.status).toBe(true);
  });

  it('fails open when Redis is down: no 5xx, limits per process, a warning; shared again once it is back', async () => {
    await redis.kill();
    const client = new TestClient(a.url);
    await client.init();
    const email = `later-${Date.now()}@example.org`;
    for (let i = 0; i < 3; i++) {
      const res = await login(client, a.url, email);
      expect(res.status).toBe(401);
    }
    // Counted in A's memory meanwhile: the 4th attempt on A is still refused …
    expect((await login(client, a.url, email)).status).toBe(429);
    // … while B, counting on its own, has seen none of them.
    expect((await login(client, b.url, email)).status).toBe(401);
    expect(a.output()).toMatch(/Redis unavailable, counting in this process \(fail-open\)/);
    expect(a.output()).not.toContain(email);

    // Redis is back (empty, on the same port): hits are counted there again.
    redis = await startRedis(redisPort);
    let n = 0;
    await eventually(async () => {
      expect((await login(client, b.url, `back-${++n}-${Date.now()}@example.org`)).status).toBe(
        401,
      );
      expect((await inspect.keys('poruch:rl:*')).length).toBeGreaterThan(0);
    }, 20_000);
  });
});
