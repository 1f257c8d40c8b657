import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileImageSources } from '../plugins/security.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('sessions, CSRF, CORS and rate limits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      RATE_LOGIN_PER_ACCOUNT: '3',
      RATE_LOGIN_PER_IP: '50',
      RATE_SIGNUP_PER_IP: '20',
      ALLOWED_ORIGINS: 'https://partner.example.org',
    });
  });
  afterAll(() => server?.close());

  async function registered() {
    const client = new TestClient(server.url);
    await client.init();
    const body = registration();
    const res = await client.post('/api/v1/auth/register', body);
    expect(res.status).toBe(201);
    return { client, email: body.account.email, password: body.account.password };
  }

  it('refuses a state-changing request without the anti-forgery header, or with a wrong one', async () => {
    const { client } = await registered();
    const missing = await client.put(
      '/api/v1/auth/update',
      { firstName: 'Хакер' },
      { csrf: false },
    );
    expect(missing.status).toBe(403);
    expect(missing.body.errors.message).toBe('csrf_token_invalid');
    const wrong = await client.put(
      '/api/v1/auth/update',
      { firstName: 'Хакер' },
      {
        csrf: false,
        headers: { 'x-xsrf-token': 'forged-token' },
      },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors.message).toBe('csrf_token_invalid');
    // Another browser's token does not fit this browser's secret.
    const other = new TestClient(server.url);
    await other.init();
    const foreign = await client.put(
      '/api/v1/auth/update',
      { firstName: 'Хакер' },
      {
        csrf: false,
        headers: { 'x-xsrf-token': decodeURIComponent(other.cookies.get('XSRF-TOKEN')!) },
      },
    );
    expect(foreign.status).toBe(403);
    expect((await client.get('/api/v1/auth/check')).body.account.firstName).toBe('Оксана');
    // With the right header it passes.
    expect((await client.put('/api/v1/auth/update', { firstName: 'Ірина' })).status).toBe(200);
  });

  it('also protects login and registration (login CSRF)', async () => {
    const client = new TestClient(server.url);
    await client.init();
    const res = await client.post(
      '/api/v1/auth/login',
      { email: 'a@example.org', password: 'x' },
      { csrf: false },
    );
    expect(res.status).toBe(403);
    const reg = await client.post('/api/v1/auth/register', registration(), { csrf: false });
    expect(reg.status).toBe(403);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie and rotates it on login', async () => {
    const { email, password } = await registered();
    const client = new TestClient(server.url);
    await client.init();
    // A planted session id (fixation) is never kept.
    client.cookies.set('poruch_session', 'planted-by-attacker');
    await client.post('/api/v1/auth/login', { email, password });
    const line = client.setCookieLine('poruch_session')!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Secure/i); // plain http on loopback
    const first = client.cookies.get('poruch_session')!;
    expect(first).not.toBe('planted-by-attacker');
    expect(first.length).toBeGreaterThanOrEqual(43);
    await client.post('/api/v1/auth/login', { email, password });
    const second = client.cookies.get('poruch_session')!;
    expect(second).not.toBe(first);
    // The old token no longer works.
    const old = new TestClient(server.url);
    old.cookies.set('poruch_session', first);
    expect((await old.get('/api/v1/auth/check')).body.status).toBe(false);
  });

  it('marks cookies Secure behind https', async () => {
    const https = await startTestServer({ TRUST_PROXY: 'true' });
    try {
      const client = new TestClient(https.url);
      await client.get('/api/v1/auth/check', { headers: { 'x-forwarded-proto': 'https' } });
      expect(client.setCookieLine('XSRF-TOKEN')).toMatch(/Secure/);
    } finally {
      await https.close();
    }
  });

  it('limits login attempts per account, with a clear key and Retry-After', async () => {
    const { email } = await registered();
    const statuses: number[] = [];
    let last: any;
    for (let i = 0; i < 4; i++) {
      // A new browser each time: the limit is on the account, not the cookie.
      const c = new TestClient(server.url);
      await c.init();
      last = await c.post('/api/v1/auth/login', { email, password: `guess ${i}` });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last.body.errors.message).toBe('too_many_requests');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits login attempts per IP', async () => {
    const limited = await startTestServer({ RATE_LOGIN_PER_IP: '2' });
    try {
      const c = new TestClient(limited.url);
      await c.init();
      const codes = [];
      for (let i = 0; i < 3; i++) {
        codes.push(
          (await c.post('/api/v1/auth/login', { email: `u${i}@example.org`, password: 'x' }))
            .status,
        );
      }
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('limits registration per IP but keeps email_is_used', async () => {
    const limited = await startTestServer({ RATE_SIGNUP_PER_IP: '2' });
    try {
      const c = new TestClient(limited.url);
      await c.init();
      const body = registration();
      expect((await c.post('/api/v1/auth/register', body)).status).toBe(201);
      const dup = await c.post('/api/v1/auth/register', body);
      expect(dup.status).toBe(409);
      expect(dup.body.errors.message).toBe('email_is_used');
      const third = await c.post('/api/v1/auth/register', registration());
      expect(third.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('answers public reads to any origin without credentials, credentialed routes only to ours', async () => {
    const anon = new TestClient(server.url);
    const env = await anon.get('/env', { headers: { origin: 'https://diaspora.example.com' } });
    expect(env.headers.get('access-control-allow-origin')).toBe('*');
    expect(env.headers.get('access-control-allow-credentials')).toBeNull();

    const foreign = await anon.get('/api/v1/auth/check', {
      headers: { origin: 'https://evil.example.com' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const ours = await anon.get('/api/v1/auth/check', {
      headers: { origin: 'http://localhost:8080' },
    });
    expect(ours.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    expect(ours.headers.get('access-control-allow-credentials')).toBe('true');

    const partner = await anon.get('/api/v1/auth/check', {
      headers: { origin: 'https://partner.example.org' },
    });
    expect(partner.headers.get('access-control-allow-origin')).toBe('https://partner.example.org');
  });

  it('sends security headers with a CSP', async () => {
    const res = await new TestClient(server.url).get('/api/v1/auth/check');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("lets the map's images come from an http TILE_URL: its origin is in img-src", async () => {
    expect(tileImageSources('http://{s}.tiles.example.net:8080/{z}/{x}/{y}.png')).toEqual([
      'http://*.tiles.example.net:8080',
    ]);
    expect(tileImageSources('http://[::1]:8080/{z}/{x}/{y}.png')).toEqual(['http://[::1]:8080']);
    expect(tileImageSources('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual([
      'https://tile.openstreetmap.org',
    ]);
    // Nothing for none, and nothing that could add a directive of its own.
    expect(tileImageSources('none')).toEqual([]);
    expect(tileImageSources("http://a.example; script-src 'unsafe-inline'/{z}")).toEqual([]);
    expect(tileImageSources('http://a.example,b/{z}')).toEqual([]);

    const local = await startTestServer({ TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' });
    try {
      const csp = (await new TestClient(local.url).get('/api/v1/auth/check')).headers.get(
        'content-security-policy',
      );
      expect(csp).toContain("img-src 'self' data: blob: https: http://127.0.0.1:9;");
    } finally {
      await local.close();
    }
    // The default (https) adds its own origin, already allowed by https:.
    const csp = (await new TestClient(server.url).get('/api/v1/auth/check')).headers.get(
      'content-security-policy',
    );
    expect(csp).toMatch(/img-src 'self' data: blob: https:[^;]*;/);
  });

  it('hides internals of a 5xx behind internal_server_error', async () => {
    const boom = await startTestServer({ LOG_LEVEL: 'silent' }, (app) => {
      app.get('/api/v1/__boom', async () => {
        throw new Error('secret database detail at /var/lib/pg');
      });
    });
    try {
      const res = await new TestClient(boom.url).get('/api/v1/__boom');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ statusCode: 500, errors: { message: 'internal_server_error' } });
    } finally {
      await boom.close();
    }
  });
});
