import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/index.js';
import { accounts } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { startChildServer, throwawayPostgres, type ChildServer } from './helpers/child.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { eventually } from './helpers/scale.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!serverUrl;

/**
 * Two server processes (tsx, separate memory) on one PostgreSQL database: nothing a request
 * needs may live in one process only.
 */
describe.skipIf(!onPostgres)(
  `two instances on one PostgreSQL${onPostgres ? '' : ' (skipped: needs the server-pg project, TEST_DATABASE_URL)'}`,
  () => {
    let db: Awaited<ReturnType<typeof throwawayPostgres>>;
    let a: ChildServer;
    let b: ChildServer;
    let direct: Database;
    const adminEmail = `admin-${Date.now()}@example.org`;
    const adminPassword = 'admin password 123';

    beforeAll(async () => {
      db = await throwawayPostgres(serverUrl!, 'poruch_scale');
      const env = {
        DATABASE_URL: db.url,
        MAIL_WORKER: 'false',
        RATE_LOGIN_PER_IP: '1000',
        RATE_LOGIN_PER_ACCOUNT: '1000',
        RATE_SIGNUP_PER_IP: '1000',
      };
      // Both start at once on an empty database: the migration lock makes one wait for the other.
      [a, b] = await Promise.all([startChildServer(env), startChildServer(env)]);
      direct = await openDatabase({ url: db.url, dataDir: '', migrate: false });
      await direct.db.insert(accounts).values({
        email: adminEmail,
        passwordHash: await hashPassword(adminPassword),
        type: 'ADMIN',
        firstName: 'Admin',
      });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
      await direct?.close();
      await db?.drop();
    });

    it('are separate processes, both ready on the migrated database', async () => {
      expect(a.pid).not.toBe(b.pid);
      for (const s of [a, b]) {
        const res = await fetch(`${s.url}/readyz`);
        expect(res.status).toBe(200);
      }
    });

    it('a session and its anti-forgery token from A work on B; a write through B is seen through A, caches included', async () => {
      // A partner registers through A: the session and XSRF cookies come from A.
      const partner = new TestClient(a.url);
      await partner.init();
      const reg = registration();
      reg.service.name = `Перукарня Масштаб ${Date.now().toString(36)}`;
      const created = await partner.post('/api/v1/auth/register', reg);
      expect(created.status).toBe(201);
      const serviceId = created.body.service.id as string;

      // The same browser on B is the same account.
      const check = await partner.get(`${b.url}/api/v1/auth/check`);
      expect(check.body).toMatchObject({ status: true, account: { email: reg.account.email } });

      // B checks the anti-forgery token A handed out: refused without it, accepted with it.
      const body = { ...reg.service, descriptionOther: 'Edited through B.' };
      const forged = await partner.put(`${b.url}/api/v1/my/services/${serviceId}`, body, {
        csrf: false,
      });
      expect(forged.status).toBe(403);
      const edited = await partner.put(`${b.url}/api/v1/my/services/${serviceId}`, body);
      expect(edited.status).toBe(200);
      const mine = await partner.get(`${a.url}/api/v1/my/services`);
      expect(mine.body[0]).toMatchObject({ id: serviceId, descriptionOther: 'Edited through B.' });

      // Warm A's search and map caches while the service is pending.
      const search = `/api/v1/services?q=${encodeURIComponent('Масштаб')}&country=PL`;
      const map = '/api/v1/map?bbox=20,51,22,53&zoom=10';
      const anon = new TestClient(a.url);
      const pointIds = async (base: string) =>
        ((await anon.get(`${base}${map}`)).body.points as { id: string }[]).map((p) => p.id);
      const hitIds = async (base: string) =>
        ((await anon.get(`${base}${search}`)).body.items as { id: string }[]).map((i) => i.id);
      for (let i = 0; i < 2; i++) {
        expect(await hitIds(a.url)).not.toContain(serviceId);
        expect(await pointIds(a.url)).not.toContain(serviceId);
        expect((await anon.get(`${a.url}/api/v1/services/${serviceId}`)).status).toBe(404);
      }

      // An administrator logs in through A and approves through B.
      const admin = new TestClient(a.url);
      await admin.init();
      const login = await admin.post('/api/v1/auth/login', {
        email: adminEmail,
        password: adminPassword,
      });
      expect(login.status).toBe(200);
      const approved = await admin.post(`${b.url}/api/v1/admin/services/${serviceId}/approve`);
      expect(approved.status).toBe(200);

      // A shows it: search and profile at once, the map within its version check (about 1 s).
      const started = Date.now();
      expect(await hitIds(a.url)).toContain(serviceId);
      expect((await anon.get(`${a.url}/api/v1/services/${serviceId}`)).status).toBe(200);
      await eventually(async () => expect(await pointIds(a.url)).toContain(serviceId), 10_000);
      const mapLagMs = Date.now() - started;
      console.info(`[scale] approval through B on A's map after ${mapLagMs} ms`);

      // And back: B's caches, warmed now, drop it when the partner's edit through A makes it pending.
      expect(await hitIds(b.url)).toContain(serviceId);
      expect(await pointIds(b.url)).toContain(serviceId);
      const back = await partner.put(`/api/v1/my/services/${serviceId}`, {
        ...body,
        descriptionOther: 'Edited through A.',
      });
      expect(back.status).toBe(200);
      expect(await hitIds(b.url)).not.toContain(serviceId);
      expect((await anon.get(`${b.url}/api/v1/services/${serviceId}`)).status).toBe(404);
      await eventually(async () => expect(await pointIds(b.url)).not.toContain(serviceId), 10_000);

      // Logging out through B ends the session on A too (it lives in the database): the old
      // cookie, replayed on A, is nobody's.
      const stolen = new TestClient(a.url);
      for (const [k, v] of partner.cookies) stolen.cookies.set(k, v);
      expect((await stolen.get('/api/v1/auth/check')).body.status).toBe(true);
      expect((await partner.get(`${b.url}/api/v1/auth/logout`)).status).toBe(200);
      expect((await stolen.get('/api/v1/auth/check')).body.status).toBe(false);
    });
  },
);
