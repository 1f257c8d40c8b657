import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_KEYS, REPORT_REASONS, runtimeConfigSchema } from '@poruch/core';
import { openDatabase } from '../db/index.js';
import {
  accounts,
  duplicateAnswers,
  reports,
  services,
  settings,
  vacancies,
} from '../db/schema.js';
import { reviewDuplicates } from '../duplicates/index.js';
import { demoLookalikeId, seedDemo } from '../seed/demo.js';
import { Outbox } from '../mail/outbox.js';
import { runReconfirmation } from '../reconfirm/index.js';
import { TestClient } from './helpers/client.js';
import { freshDatabase, startTestServer, testLog, type TestServer } from './helpers/server.js';

const run = promisify(execFile);
const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

describe('runtime configuration, API docs and the site', () => {
  let server: TestServer;
  let siteDir: string;

  beforeAll(async () => {
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-site-'));
    await fs.mkdir(path.join(siteDir, 'assets'));
    await fs.writeFile(
      path.join(siteDir, 'index.html'),
      '<!doctype html><title>Poruch shell</title><div id="root"></div>',
    );
    await fs.writeFile(path.join(siteDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    server = await startTestServer({
      NODE_ENV: 'production',
      SITE_DIR: siteDir,
      ANALYTICS_ID: 'G-TEST123',
      TAG_MANAGER_ID: 'GTM-TEST',
    });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(siteDir, { recursive: true, force: true });
  });

  it('serves /env at the site root, readable from any origin', async () => {
    const res = await new TestClient(server.url).get('/env', {
      headers: { origin: 'https://diaspora.example.com' },
    });
    expect(res.status).toBe(200);
    const config = runtimeConfigSchema.parse(res.body);
    expect(config).toMatchObject({
      analyticsId: 'G-TEST123',
      tagManagerId: 'GTM-TEST',
      errorReporting: { enabled: false },
      apiBase: 'http://localhost:8080/api/v1/',
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('generates the OpenAPI document from the schemas and serves the browsable page', async () => {
    const client = new TestClient(server.url);
    const doc = await client.get('/api/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const p of [
      '/env',
      '/api/v1/auth/check',
      '/api/v1/auth/login',
      '/api/v1/auth/update',
      '/api/v1/auth/logout',
      '/api/v1/auth/reset-password',
      '/api/v1/auth/notifications',
      '/api/v1/auth/register',
      '/api/v1/auth/credentials',
      '/api/v1/account',
    ]) {
      expect(Object.keys(doc.body.paths)).toContain(p);
    }
    const login = doc.body.paths['/api/v1/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
    const page = await client.get('/api/docs/');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('swagger');
  });

  it('serves the built site at /, hashed assets as immutable, and index.html for client routes', async () => {
    const client = new TestClient(server.url);
    const root = await client.get('/');
    expect(root.status).toBe(200);
    expect(String(root.body)).toContain('<title>Poruch shell</title>');
    const asset = await client.get('/assets/app-abc123.js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    for (const route of ['/dashboard', '/provide-help?x=1', '/some/unknown/path']) {
      const page = await client.get(route);
      expect(page.status).toBe(200);
      expect(String(page.body)).toContain('Poruch shell');
    }
    // API paths never fall back to the page, and files outside the site folder stay out.
    expect((await client.get('/api/v1/unknown')).body.errors.message).toBe('not_found');
    expect(String((await client.get('/../../etc/passwd')).body)).not.toContain('root:');
  });

  it('answers the health checks', async () => {
    const client = new TestClient(server.url);
    expect((await client.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await client.get('/readyz')).body).toEqual({ status: 'ok' });
  });
});

describe('database', () => {
  it('applies the migrations with pg_trgm and unaccent', async () => {
    const { database, drop } = await freshDatabase();
    try {
      const { rows } = (await database.db.execute(
        `select extname from pg_extension where extname in ('pg_trgm', 'unaccent') order by extname`,
      )) as unknown as { rows: { extname: string }[] };
      expect(rows.map((r) => r.extname)).toEqual(['pg_trgm', 'unaccent']);
      const sim = (await database.db.execute(
        `select similarity('perukarnia', 'perukarnya') > 0.3 as ok, unaccent('Kraków') as u`,
      )) as unknown as { rows: { ok: boolean; u: string }[] };
      expect(sim.rows[0]).toEqual({ ok: true, u: 'Krakow' });
    } finally {
      await database.close();
      await drop();
    }
  });

  it('seeds the demo catalogue once', async () => {
    const { database, drop } = await freshDatabase();
    try {
      // Speed lives in benchmarks, not in timed tests (the seed takes about 1.5 s on PGlite).
      const added = await seedDemo(database.db);
      expect(await seedDemo(database.db)).toBe(0);
      const rows = await database.db.select().from(services);
      expect(rows).toHaveLength(added);
      const approved = rows.filter((s) => s.status === 'approved');
      expect(approved.length).toBeGreaterThanOrEqual(300);
      expect(new Set(approved.map((s) => s.countryCode)).size).toBeGreaterThanOrEqual(25);
      expect(new Set(approved.map((s) => s.category))).toEqual(new Set(CATEGORY_KEYS));
      expect(rows.filter((s) => s.status === 'pending').length).toBeGreaterThan(0);
      const declined = rows.filter((s) => s.status === 'declined');
      expect(declined.length).toBeGreaterThan(0);
      expect(declined.every((s) => s.declineReason)).toBe(true);
      expect(rows.every((s) => s.ownerId === null)).toBe(true);
      expect(rows.some((s) => s.isPartner)).toBe(true);
      expect(rows.some((s) => s.isOnline)).toBe(true);
      // The yearly re-confirmation in every state (fresh, mailed, reminded, overdue, lapsed),
      // each as the job would have left it: a run now changes nothing.
      const states = approved.map((s) =>
        s.confirmation !== 'current'
          ? s.confirmation
          : s.reconfirmRemindedAt
            ? 'reminded'
            : s.reconfirmMailedAt
              ? 'mailed'
              : 'fresh',
      );
      expect(new Set(states)).toEqual(
        new Set(['fresh', 'mailed', 'reminded', 'overdue', 'lapsed']),
      );
      expect(approved.every((s) => s.confirmedAt)).toBe(true);
      const run = await runReconfirmation({
        db: database.db,
        outbox: new Outbox('test.example'),
        publicUrl: 'http://localhost:8080',
        secret: 'x'.repeat(32),
      });
      expect(run).toEqual({ mailed: 0, reminded: 0, overdue: 0, lapsed: 0 });
      for (const s of rows) {
        expect(s.descriptionUa).toMatch(/[а-яіїєґ]/i);
        expect(s.descriptionOther).toMatch(/[a-z]/i);
        if (s.lat !== null) expect(s.addressDetails?.countryCode).toBe(s.countryCode);
      }

      const jobs = await database.db.select().from(vacancies);
      expect(jobs.length).toBeGreaterThan(100);
      expect(jobs.some((v) => !v.isOpen)).toBe(true);
      const withOpen = new Set(jobs.filter((v) => v.isOpen).map((v) => v.serviceId));
      for (const s of rows) expect(s.haveVacancy, s.name).toBe(withOpen.has(s.id));

      const filed = await database.db.select().from(reports);
      expect(new Set(filed.map((r) => r.status))).toEqual(new Set(['new', 'resolved']));
      expect(new Set(filed.map((r) => r.reason))).toEqual(new Set(REPORT_REASONS));
      expect(await database.db.select().from(settings)).toHaveLength(1);

      // A newcomer's review shows "Possible duplicates": a similar name nearby (with an open
      // claim), the name in Latin letters next door, the same phone elsewhere.
      const reasons = new Map<string, string[]>();
      const lookalikes = [0, 1, 2].map((k) => rows.find((r) => r.id === demoLookalikeId(k))!);
      expect(lookalikes.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
      for (const s of lookalikes) {
        for (const c of await reviewDuplicates(database.db, s)) {
          reasons.set(s.name, [...(reasons.get(s.name) ?? []), ...c.reasons]);
        }
      }
      const found = [...reasons.values()];
      expect(found.filter((r) => r.includes('name_nearby')).length).toBeGreaterThanOrEqual(2);
      expect(found.some((r) => r.includes('phone'))).toBe(true);
      expect([...reasons.keys()].some((n) => /^[\p{Script=Latin}\s\p{P}\d]+$/u.test(n))).toBe(true);
      const claims = await database.db.select().from(duplicateAnswers);
      expect(claims).toEqual([expect.objectContaining({ answer: 'mine', claimStatus: 'open' })]);
      const claimed = rows.find((r) => r.id === claims[0]!.candidateId)!;
      expect(claimed.status).toBe('approved');
      expect(rows.find((r) => r.id === claims[0]!.serviceId)!.status).toBe('pending');
    } finally {
      await database.close();
      await drop();
    }
  }, 60_000);

  it('keeps the embedded database on disk across restarts', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-disk-'));
    try {
      const first = await openDatabase({ dataDir: path.join(dir, 'db') });
      await first.db
        .insert(accounts)
        .values({ email: 'keep@example.org', passwordHash: 'x', type: 'PARTNER' });
      await first.close();
      const second = await openDatabase({ dataDir: path.join(dir, 'db') });
      expect(await second.db.select().from(accounts)).toHaveLength(1);
      await second.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pnpm admin:create', () => {
  it('creates an administrator with a generated password printed once, and refuses a second one', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-admin-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    try {
      const cli = ['--import', 'tsx', 'src/cli/admin-create.ts'];
      const { stdout } = await run('node', [...cli, '--email', 'Root@Example.org', '--super'], {
        cwd: SERVER_DIR,
        env,
      });
      const password = /Password \(shown once, store it now\): (\S+)/.exec(stdout)?.[1];
      expect(password).toMatch(/^[A-Za-z2-9]{20}$/);
      const again = await run('node', [...cli, '--email', 'root@example.org'], {
        cwd: SERVER_DIR,
        env,
      }).catch((e: { code: number; stderr: string }) => e);
      expect((again as { code: number }).code).toBe(1);
      expect((again as { stderr: string }).stderr).toContain('already exists');
      const usage = await run('node', [...cli, '--email', 'not-an-email'], {
        cwd: SERVER_DIR,
        env,
      }).catch((e: { code: number }) => e);
      expect((usage as { code: number }).code).toBe(2);

      // The new administrator logs in with the printed password.
      const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
      const { buildApp } = await import('../app.js');
      const { loadEnv } = await import('../env.js');
      const app = await buildApp({
        env: loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir }),
        database,
        logStream: testLog,
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const client = new TestClient(url);
        await client.init();
        const login = await client.post('/api/v1/auth/login', {
          email: 'root@example.org',
          password,
        });
        expect(login.status).toBe(200);
        expect(login.body).toMatchObject({ type: 'ADMIN', isSuper: true });
      } finally {
        await app.close();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
