import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/index.js';
import { accounts } from '../db/schema.js';
import { loadEnv } from '../env.js';
import { hashPassword } from '../lib/passwords.js';
import { seedDemo } from '../seed/demo.js';
import { runCli, startChildServer, throwawayPostgres } from './helpers/child.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { testLog } from './helpers/server.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;
const ADMIN = { email: 'admin@backup.test', password: 'backup admin password' };

interface Place {
  dataDir: string;
  url?: string;
  drop(): Promise<void>;
}

async function place(): Promise<Place> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-backup-'));
  const pgTarget = onPostgres
    ? await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'poruch_backup')
    : undefined;
  return {
    dataDir,
    url: pgTarget?.url,
    drop: async () => {
      await pgTarget?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The environment of the CLIs and the server for a place (no DATABASE_URL for PGlite). */
function envOf(p: Place): Record<string, string | undefined> {
  return { DATA_DIR: p.dataDir, DATABASE_URL: p.url };
}

/** `pnpm backup` / `pnpm restore` as the operator runs them (the server package's tsx CLI). */
const cli = (name: 'backup' | 'restore', args: string[], p: Place) => runCli(name, args, envOf(p));

/** The app in this process over a place's database, with the outbox worker off (rows stay put). */
async function serve(p: Place) {
  const database: Database = await openDatabase({
    url: p.url,
    dataDir: path.join(p.dataDir, 'db'),
  });
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: p.dataDir,
    PUBLIC_URL: 'http://localhost:8080',
    MAIL_WORKER: 'false',
    RATE_LOGIN_PER_IP: '1000',
    RATE_SIGNUP_PER_IP: '1000',
  });
  const app = await buildApp({ env, database, logStream: testLog });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, database, close: () => app.close() };
}

const TABLES = [
  'accounts',
  'sessions',
  'services',
  'vacancies',
  'used_marks',
  'reports',
  'campaigns',
  'campaign_recipients',
  'mail_outbox',
  'push_subscriptions',
  'audit_log',
  'settings',
];

/** What the restored server must answer exactly as the original did. */
async function snapshot(url: string, database: Database, partner: { email: string }) {
  const rows = async <T>(q: ReturnType<typeof sql>) =>
    ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;
  const counts: Record<string, number> = {};
  for (const t of TABLES) {
    const [r] = await rows<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${t}`));
    counts[t] = Number(r!.n);
  }
  const admin = new TestClient(url);
  await admin.init();
  expect((await admin.post('/api/v1/auth/login', ADMIN)).status).toBe(200);
  const owner = new TestClient(url);
  await owner.init();
  const login = await owner.post('/api/v1/auth/login', {
    email: partner.email,
    password: registration().account.password,
  });
  expect(login.status).toBe(200);
  const get = async (c: TestClient, p: string) => {
    const res = await c.get(p);
    expect(res.status, p).toBe(200);
    return res.body;
  };
  const myServices = await get(owner, '/api/v1/my/services');
  const result = {
    counts,
    accounts: await rows(
      sql`SELECT id, email, password_hash, type, first_name, last_name, phone, locale
          FROM accounts ORDER BY id`,
    ),
    vacancies: await rows(sql`SELECT id, service_id, name, is_open FROM vacancies ORDER BY id`),
    outbox: await rows(
      sql`SELECT id, idempotency_key, recipient, template, status, payload
          FROM mail_outbox ORDER BY id`,
    ),
    extensions: await rows(sql`SELECT extname FROM pg_extension ORDER BY extname`),
    adminServices: await get(admin, '/api/v1/admin/services?pageSize=100'),
    reports: await get(admin, '/api/v1/admin/reports'),
    audit: await get(admin, '/api/v1/admin/audit'),
    myServices,
    myVacancies: await get(owner, `/api/v1/my/services/${myServices[0].id}/vacancies`),
    list: await get(owner, '/api/v1/services?pageSize=50&sort=newest'),
    // A typo-tolerant search needs the search columns, indexes and extensions restored too.
    search: await get(owner, `/api/v1/services?q=${encodeURIComponent('Калтна')}`),
    profile: await get(owner, `/api/v1/services/${myServices[0].id}`),
  };
  // Log out, so the snapshot leaves no sessions behind (the counts stay comparable).
  for (const c of [admin, owner]) expect((await c.get('/api/v1/auth/logout')).status).toBe(200);
  return result;
}

describe(`backup and restore (${onPostgres ? 'PostgreSQL' : 'PGlite on disk'})`, () => {
  let source: Place;
  let target: Place;
  let file: string;
  let before: Awaited<ReturnType<typeof snapshot>>;
  const partner = registration();

  beforeAll(async () => {
    source = await place();
    target = await place();
    file = path.join(source.dataDir, onPostgres ? 'backup.pgdump' : 'backup.pglite.tar.gz');
    // Seed: the demo catalogue, plus one partner's whole life over HTTP.
    const s = await serve(source);
    try {
      await seedDemo(s.database.db);
      await s.database.db.insert(accounts).values({
        email: ADMIN.email,
        passwordHash: await hashPassword(ADMIN.password),
        type: 'ADMIN',
      });
      const owner = new TestClient(s.url);
      await owner.init();
      partner.service.name = 'Перукарня «Калина» (backup)';
      const reg = await owner.post('/api/v1/auth/register', partner);
      expect(reg.status).toBe(201);
      const serviceId = reg.body.service.id as string;
      const vacancy = await owner.post(`/api/v1/my/services/${serviceId}/vacancies`, {
        name: 'Перукар',
        requirements: 'Досвід',
        description: 'Повний день',
        salary: '5000 PLN',
        experience: 'any',
        isOpen: true,
      });
      expect(vacancy.status).toBe(201);
      const admin = new TestClient(s.url);
      await admin.init();
      expect((await admin.post('/api/v1/auth/login', ADMIN)).status).toBe(200);
      expect((await admin.post(`/api/v1/admin/services/${serviceId}/approve`)).status).toBe(200);
      const visitor = new TestClient(s.url);
      expect(
        (
          await visitor.post('/api/v1/reports', {
            serviceId,
            reason: 'other',
            description: 'Backup test report',
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await visitor.post(`/api/v1/services/${serviceId}/used`, {
            browserId: 'backup-test-browser-0001',
          })
        ).status,
      ).toBe(200);
      before = await snapshot(s.url, s.database, partner.account);
    } finally {
      await s.close();
    }
  }, 180_000);

  afterAll(async () => {
    await source?.drop();
    await target?.drop();
  });

  it('restores into a fresh database, and the server answers the same data', async () => {
    expect(before.counts.accounts).toBeGreaterThan(1);
    expect(before.counts.services).toBeGreaterThan(10);
    expect(before.counts.mail_outbox).toBeGreaterThan(0);
    expect(before.search.items.length).toBeGreaterThan(0);

    const backup = await cli('backup', ['--out', file], source);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain(file);
    // Personal data and password hashes: readable by the owner only.
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const restore = await cli('restore', [file], target);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toContain(`${before.counts.accounts} accounts`);

    const t = await serve(target);
    try {
      const after = await snapshot(t.url, t.database, partner.account);
      expect(after).toEqual(before);
    } finally {
      await t.close();
    }
  }, 180_000);

  it('refuses a database with data without --force, and a restore while a server uses it', async () => {
    const again = await cli('restore', [file], target);
    expect(again.code).toBe(1);
    expect(again.out).toContain('--force');

    const server = await startChildServer(
      Object.fromEntries(Object.entries(envOf(target)).filter(([, v]) => v)) as Record<
        string,
        string
      >,
    );
    try {
      const busy = await cli('restore', [file, '--force'], target);
      expect(busy.code).toBe(1);
      expect(busy.out).toMatch(
        onPostgres ? /other connection\(s\) use this database/ : /in use by a server/,
      );
      // (`pnpm backup` on PGlite while the server runs asks the server for a snapshot:
      // snapshots.test.ts.)
      // The server was not disturbed.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.kill('SIGTERM');
    }

    const forced = await cli('restore', [file, '--force'], target);
    expect(forced.code, forced.out).toBe(0);
    if (!onPostgres) expect(forced.out).toContain('kept at');
    const t = await serve(target);
    try {
      const after = await snapshot(t.url, t.database, partner.account);
      expect(after.counts).toEqual(before.counts);
      expect(after.search).toEqual(before.search);
    } finally {
      await t.close();
    }
  }, 240_000);

  it.runIf(onPostgres)(
    'waits for the connections of a server stopped a moment ago to close',
    async () => {
      // A connection that closes while the restore looks: a server just stopped, whose backends
      // PostgreSQL ends a moment after the process.
      const lingering = new pg.Client({ connectionString: target.url });
      await lingering.connect();
      let finished = false;
      const restore = cli('restore', [file, '--force'], target).finally(() => (finished = true));
      // Closed once the restore has connected (and so has seen it).
      while (!finished) {
        const { rows } = await lingering.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await lingering.end();
      const res = await restore;
      expect(res.code, res.out).toBe(0);
    },
    120_000,
  );

  it('refuses a file that is not a backup, and a backup of the other database', async () => {
    const junk = path.join(source.dataDir, 'junk.bin');
    await fs.writeFile(junk, 'not a backup');
    const res = await cli('restore', [junk, '--force'], target);
    expect(res.code).toBe(1);
    expect(res.out).toContain('is not a Poruch backup');
    const other = path.join(source.dataDir, onPostgres ? 'other.tar.gz' : 'other.pgdump');
    await fs.writeFile(other, onPostgres ? Buffer.from([0x1f, 0x8b, 8, 0, 0]) : 'PGDMP....');
    const wrong = await cli('restore', [other, '--force'], target);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(onPostgres ? /PGlite backup/ : /set DATABASE_URL/);
  }, 60_000);
});
