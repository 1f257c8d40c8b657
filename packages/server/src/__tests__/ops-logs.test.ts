import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { mailOutbox } from '../db/schema.js';
import { loadEnv } from '../env.js';
import { safeUrl, scrubLine, serializeError, truncateIp } from '../logging.js';
import { unsubscribeToken } from '../mail/unsubscribe.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { freshDatabase } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

/** How long to wait for the mail worker (the machine may be busy). */
const POLL = { timeout: 15_000 };

/** Observability: structured logs with request ids and nothing secret or personal. */
describe('logs', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let url: string;
  let smtp: TestSmtp;
  let drop: () => Promise<void>;
  let dataDir: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-ops-logs-'));
    const env = loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'trace',
      DATA_DIR: dataDir,
      PORT: '0',
      PUBLIC_URL: 'http://localhost:8080',
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      RATE_SIGNUP_PER_IP: '1000',
    });
    const db = await freshDatabase();
    drop = db.drop;
    app = await buildApp({
      env,
      database: db.database,
      logStream: { write: (line: string) => lines.push(line) },
    });
    // A careless route: logs the whole body and fails in the database with the user's value.
    app.post('/api/v1/ops-test-careless', { config: { csrf: false } }, async (request) => {
      request.log.info({ body: request.body, headers: request.headers }, 'careless log');
      const { email } = request.body as { email: string };
      request.log.warn(`careless message about ${email}`);
      await app.db.execute(sql`SELECT ${email}::int`);
      return { ok: true };
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    await smtp?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('carry a request id: a sane X-Request-Id is kept and echoed, otherwise a new one', async () => {
    const client = new TestClient(url);
    const kept = await client.get('/healthz', { headers: { 'x-request-id': 'lb-1234.abc:9' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc:9');
    for (const bad of ['x'.repeat(200), 'has space', 'semi;colon', '"quoted"']) {
      const res = await client.get('/healthz', { headers: { 'x-request-id': bad } });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const fresh = await client.get('/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const completed = parsed.filter(
      (l) => l.reqId === 'lb-1234.abc:9' && l.msg === 'request completed',
    );
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ res: { statusCode: 200 } });
  });

  it('never contain a password, cookie, token or e-mail address through register, login, reset and unsubscribe', async () => {
    const secrets: string[] = [];
    const body = registration({ locale: 'en_GB' });
    const email = body.account.email;
    const browser = new TestClient(url);
    await browser.init();
    expect((await browser.post('/api/v1/auth/register', body)).status).toBe(201);
    secrets.push(body.account.password, body.account.phone, body.account.lastName);
    await smtp.waitFor(email);

    const laptop = new TestClient(url);
    await laptop.init();
    const login = await laptop.post('/api/v1/auth/login', {
      email,
      password: body.account.password,
    });
    expect(login.status).toBe(200);
    // A wrong password and an unknown address are logged as rejections, without the values.
    await laptop.post('/api/v1/auth/login', { email, password: 'wrong-password-typed' });
    await laptop.post('/api/v1/auth/login', {
      email: 'ghost.user@example.org',
      password: 'ghost password 1',
    });
    secrets.push('wrong-password-typed', 'ghost password 1');

    const stranger = new TestClient(url);
    await stranger.init();
    expect(
      (await stranger.post('/api/v1/auth/reset-password', { email: email.toUpperCase() })).status,
    ).toBe(200);
    const mail = await smtp.waitForMail((m) => m.subject === 'Your temporary Poruch password');
    const temp = /Temporary password: (\S+)/.exec(mail.text ?? '')?.[1];
    expect(temp).toBeTruthy();
    secrets.push(temp!);
    const viaTemp = new TestClient(url);
    await viaTemp.init();
    expect((await viaTemp.post('/api/v1/auth/login', { email, password: temp })).status).toBe(200);

    const changed = await viaTemp.put('/api/v1/auth/credentials', {
      currentPassword: temp,
      email: `moved.${email}`,
      newPassword: 'another brand new secret',
      confirmPassword: 'another brand new secret',
    });
    expect(changed.status).toBe(200);
    secrets.push('another brand new secret');

    // Tokens in URLs: unsubscribe links and an administrator's search by e-mail.
    const token = unsubscribeToken(app.mail.unsubscribeSecret, login.body.id);
    expect((await stranger.get(`/api/v1/unsubscribe?token=${token}`)).status).toBe(200);
    secrets.push(token);
    await stranger.get(`/api/v1/services?q=${encodeURIComponent(email)}&page=1`);

    // A careless handler: its body log is redacted and its database error loses the value.
    const careless = await stranger.post(
      '/api/v1/ops-test-careless',
      { email: 'careless.person@example.org', password: 'careless secret 9' },
      { headers: { authorization: 'Bearer careless-bearer-token-1' } },
    );
    expect(careless.status).toBe(500);
    secrets.push('careless secret 9', 'careless-bearer-token-1', 'careless.person');

    // Every cookie value the server handed out.
    for (const client of [browser, laptop, stranger, viaTemp]) {
      for (const value of client.cookies.values()) secrets.push(decodeURIComponent(value), value);
    }
    // Wait for the worker to have delivered every mail and logged each delivery.
    await expect
      .poll(async () => {
        const rows = await app.db.select().from(mailOutbox);
        const log = lines.join('');
        return rows.filter((r) => r.status !== 'sent' || !log.includes(r.id));
      }, POLL)
      .toEqual([]);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    // The log did see these requests (so the absence below means something).
    expect(log).toContain('/api/v1/auth/login');
    expect(log).toContain('/api/v1/unsubscribe?token=[redacted]');
    expect(log).toContain('/api/v1/services?q=[redacted]&page=1');
    expect(log).toContain('careless log');
    expect(log).toMatch(/invalid input syntax for type integer: \\"\[redacted\]\\"/);
    for (const secret of secrets.filter((s) => s.length >= 6)) {
      expect(log, `the log contains ${secret}`).not.toContain(secret);
    }
    expect(log).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    expect(log.toLowerCase()).not.toContain(email.toLowerCase());
    // Client addresses are truncated.
    expect(log).toContain('"remoteAddress":"127.0.0.0"');
    expect(log).not.toContain('127.0.0.1"');
  });

  it('helpers: URL, IP, line and error scrubbing', () => {
    expect(safeUrl('/a?token=abc&page=2&q=hello')).toBe('/a?token=[redacted]&page=2&q=[redacted]');
    expect(safeUrl('/a')).toBe('/a');
    expect(truncateIp('203.0.113.77')).toBe('203.0.113.0');
    expect(truncateIp('::ffff:203.0.113.77')).toBe('203.0.113.0');
    expect(truncateIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::');
    expect(scrubLine('{"msg":"mail to Olena.K+x@mail.example.co.uk failed"}')).toBe(
      '{"msg":"mail to [email] failed"}',
    );
    const err = Object.assign(new Error('Failed query: select $1\nparams: secret,other'), {
      cause: Object.assign(new Error('duplicate key "x@y.org"'), {
        severity: 'ERROR',
        code: '23505',
        detail: 'Key (email)=(x@y.org) already exists.',
        constraint: 'accounts_email_unique',
      }),
    });
    const s = JSON.stringify(serializeError(err));
    expect(s).not.toMatch(/secret|x@y|Key \(email\)/);
    expect(s).toContain('accounts_email_unique');
    expect(s).toContain('23505');
  });
});
