import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.js';
import { loadEnv } from '../env.js';
import { loggedIn } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { eventually, serveReplicaApp, startReplicaApp, type ReplicaApp } from './helpers/scale.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const replicaServerUrl = process.env.TEST_DATABASE_READ_URL;
const ready = process.env.PORUCH_TEST_DB === 'postgres' && !!serverUrl && !!replicaServerUrl;

/** A query on the standby's maintenance database (pausing and resuming WAL replay). */
async function onStandby(query: string) {
  const c = new pg.Client({ connectionString: replicaServerUrl });
  await c.connect();
  try {
    return (await c.query(query)).rows;
  } finally {
    await c.end();
  }
}

/**
 * A streaming hot standby (TEST_DATABASE_READ_URL) as DATABASE_READ_URL. Replay is paused on the
 * standby while a partner writes: what the primary answers shows the write, what the replica
 * answers does not, which tells them apart.
 */
describe.skipIf(!ready)(
  `read replica${ready ? '' : ' (skipped: needs the server-pg project and a hot standby: TEST_DATABASE_URL names a server without TEST_DATABASE_READ_URL)'}`,
  () => {
    let replica: ReplicaApp;
    let database: Database;
    let url: string;

    beforeAll(async () => {
      // A run that died mid-test may have left replay paused.
      await onStandby('SELECT pg_wal_replay_resume()');
      replica = await startReplicaApp({
        primary: serverUrl!,
        standby: replicaServerUrl!,
        name: 'poruch_scale',
      });
      ({ database, url } = replica);
    }, 120_000);

    afterAll(async () => {
      await onStandby('SELECT pg_wal_replay_resume()').catch(() => {});
      await replica?.close();
    });

    it('runs replica routes on the standby and everything else on the primary', async () => {
      const client = new TestClient(url);
      expect((await client.get('/test/recovery/replica')).body).toBe(true);
      expect((await client.get('/test/recovery/primary')).body).toBe(false);
      // The read pool is read-only even where a write would be possible.
      await expect(database.read!.execute(sql`create table not_here (id int)`)).rejects.toThrow();
      expect((await client.get('/readyz')).body).toEqual({ status: 'ok', replica: 'ok' });
    });

    it('public reads come from the replica; the partner and the administrator see their writes at once', async () => {
      const anon = new TestClient(url);
      const partner = new TestClient(url);
      await partner.init();
      const { client: admin } = await loggedIn(replica, 'ADMIN');

      const search = '/api/v1/services?country=PL';
      const map = '/api/v1/map?bbox=20,51,22,53&zoom=10';
      const hits = async () =>
        ((await anon.get(search)).body.items as { id: string }[]).map((i) => i.id);
      const points = async () =>
        ((await anon.get(map)).body.points as { id: string }[]).map((p) => p.id);
      expect(await hits()).toEqual([]);
      expect(await points()).toEqual([]);

      await onStandby('SELECT pg_wal_replay_pause()');
      await eventually(async () => {
        const [row] = await onStandby('SELECT pg_get_wal_replay_pause_state() AS s');
        expect(row!.s).toBe('paused');
      }, 10_000);

      // Registration (a session included) and approval go to the primary.
      const created = await partner.post('/api/v1/auth/register', registration());
      expect(created.status).toBe(201);
      const id = created.body.service.id as string;
      expect((await admin.post(`/api/v1/admin/services/${id}/approve`)).status).toBe(200);

      // The primary answers the writers: the partner's own list, the session, the admin's view.
      expect((await partner.get('/api/v1/auth/check')).body.status).toBe(true);
      const mine = await partner.get('/api/v1/my/services');
      expect(mine.body).toMatchObject([{ id, status: 'approved' }]);
      expect((await admin.get(`/api/v1/admin/services/${id}`)).body).toMatchObject({
        status: 'approved',
      });

      // The replica has not replayed any of it: the public reads from it are still without the
      // service. The map is the exception by design: the approval patches this instance's map
      // index with that one service read from the primary (MapCache.patch, docs/map.md), so the
      // writer's own change shows on the map before the standby replays it.
      expect((await anon.get(`/api/v1/services/${id}`)).status).toBe(404);
      expect(await hits()).not.toContain(id);
      expect(await points()).toContain(id);
      expect((await anon.get('/sitemap.xml')).body).not.toContain(id);

      // Replay resumes: the public reads catch up.
      const resumed = Date.now();
      await onStandby('SELECT pg_wal_replay_resume()');
      await eventually(
        async () => expect((await anon.get(`/api/v1/services/${id}`)).status).toBe(200),
        10_000,
      );
      expect((await anon.get('/sitemap.xml')).body).toContain(id);
      await eventually(async () => expect(await points()).toContain(id), 10_000);
      const mapMs = Date.now() - resumed;
      // The search cache kept no page read while the standby had not replayed the approval
      // (search/cache.ts): the search shows it with the profile, not a cache lifetime later.
      await eventually(async () => expect(await hits()).toContain(id), 5000, 50);
      const searchMs = Date.now() - resumed;

      // A second change, replica streaming: the partner's edit takes the service back to pending.
      // The profile and the map drop it once the standby has replayed the edit; the search too
      // (before the search cache followed the primary's notifications, up to 30 s later).
      const edited = await partner.put(`/api/v1/my/services/${id}`, registration().service);
      expect(edited.status).toBe(200);
      const changed = Date.now();
      await eventually(
        async () => expect((await anon.get(`/api/v1/services/${id}`)).status).toBe(404),
        10_000,
      );
      const profileGoneMs = Date.now() - changed;
      await eventually(async () => expect(await points()).not.toContain(id), 10_000);
      const mapGoneMs = Date.now() - changed;
      await eventually(async () => expect(await hits()).not.toContain(id), 5000, 50);
      const searchGoneMs = Date.now() - changed;
      console.info(
        `[scale] replay resumed → shown: profile and map ${mapMs} ms, search ${searchMs} ms; ` +
          `edit → hidden: profile ${profileGoneMs} ms, map ${mapGoneMs} ms, search ${searchGoneMs} ms`,
      );
    });

    it('a replica further behind than REPLICA_MAX_LAG_MS: public reads go to the primary until it catches up', async () => {
      const MAX_LAG_MS = 300;
      const lagging = await serveReplicaApp(
        loadEnv({
          NODE_ENV: 'test',
          DATA_DIR: replica.dataDir,
          DATABASE_URL: replica.db.url,
          DATABASE_READ_URL: database.pools!.read!.options.connectionString!,
          REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
          MAIL_WORKER: 'false',
        }),
        { database: { migrate: false } },
      );
      try {
        const anon = new TestClient(lagging.url);
        const servedByStandby = async () =>
          (await anon.get('/test/recovery/replica')).body as boolean;
        // Caught up (an idle primary is not lag): the replica serves.
        await eventually(
          async () =>
            expect((await anon.get('/readyz')).body).toEqual({ status: 'ok', replica: 'ok' }),
          5000,
        );
        expect(await servedByStandby()).toBe(true);

        await onStandby('SELECT pg_wal_replay_pause()');
        const partner = new TestClient(url);
        await partner.init();
        const created = await partner.post('/api/v1/auth/register', registration());
        expect(created.status).toBe(201);
        const written = Date.now();
        // Replay stands still behind the registration: past the limit, reads go to the primary.
        await eventually(
          async () =>
            expect((await anon.get('/readyz')).body).toEqual({
              status: 'ok',
              replica: 'lagging',
            }),
          MAX_LAG_MS + 5000,
          50,
        );
        const laggingMs = Date.now() - written;
        // The lag counts from the write, not from the last replayed commit before it (the idle
        // time before a write is no lag).
        expect(laggingMs).toBeGreaterThanOrEqual(MAX_LAG_MS - 100);
        expect(await servedByStandby()).toBe(false);
        // The pending service is not public either way; the sitemap answers from the primary.
        expect((await anon.get('/sitemap.xml')).status).toBe(200);

        await onStandby('SELECT pg_wal_replay_resume()');
        const resumed = Date.now();
        await eventually(async () => expect(await servedByStandby()).toBe(true), 5000, 50);
        const backMs = Date.now() - resumed;
        expect((await anon.get('/readyz')).body).toEqual({ status: 'ok', replica: 'ok' });
        console.info(
          `[scale] replica lag (REPLICA_MAX_LAG_MS=${MAX_LAG_MS}): on the primary ${laggingMs} ms ` +
            `after a write that replay (paused) did not reach, back on the replica ${backMs} ms after it resumed`,
        );
      } finally {
        await onStandby('SELECT pg_wal_replay_resume()').catch(() => {});
        await lagging.app.close();
      }
    }, 60_000);
  },
);
