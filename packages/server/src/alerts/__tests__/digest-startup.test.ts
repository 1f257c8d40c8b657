import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/index.js';
import { loadEnv } from '../../env.js';
import { Outbox } from '../../mail/outbox.js';
import { runReconfirmation } from '../../reconfirm/index.js';
import { freshDatabase, testLog } from '../../__tests__/helpers/server.js';
import { waitUntil } from '../../mail/__tests__/helpers.js';

const SUBSCRIPTIONS = 2000;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** Cheap database reads in a row while a job runs (each waits for the job's slice in hand). */
const PINGS = 5;

/**
 * A server started with many alerts due: its first digest run starts once it listens, and works
 * in short transactions, so the start-up and the requests meanwhile do not wait for the run. On
 * the embedded database (one connection) a request's query waits for the transaction in hand:
 * each of a few requests in a row is answered while the run is still under way, and the start-up
 * itself does not wait for it.
 */
describe('alert digests beside the requests', () => {
  let database: Database;
  let drop = async () => {};
  let app: FastifyInstance;
  let dataDir: string;

  const due = async () =>
    rowsOf<{ n: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n FROM alert_subscriptions
        WHERE last_digest_at < now() - interval '1 hour'`),
    )[0]!.n;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-digest-startup-'));
    ({ database, drop } = await freshDatabase());
    await database.db.execute(sql`
      INSERT INTO services (name, country_code, category, status, approved_at)
      SELECT 'Новий сервіс ' || g, 'PL', 'food', 'approved', now() - interval '1 day'
      FROM generate_series(1, 5) g`);
    await database.db.execute(sql`
      INSERT INTO alert_subscriptions
        (email, locale, kind, filters, frequency, confirmed_at, last_digest_at)
      SELECT 'sub' || g || '@startup.test', 'ua', 'services',
             '{"category":"food","country":"PL"}', 'daily',
             now() - interval '2 days', now() - interval '1 day'
      FROM generate_series(1, ${SUBSCRIPTIONS}::int) g`);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await drop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers while its first run is under way', { timeout: 120_000 }, async () => {
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      PUBLIC_URL: 'http://localhost:8080',
      MAIL_WORKER: 'false',
      RECONFIRM_JOB: 'false',
    });
    app = await buildApp({ env, database, logStream: testLog });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    // Listening, and the run not done yet (before, it began as the server got ready).
    expect(await due()).toBeGreaterThan(0);
    for (let i = 0; i < PINGS; i++) {
      const [health, ready] = await Promise.all([fetch(`${url}/healthz`), fetch(`${url}/readyz`)]);
      expect([health.status, ready.status]).toEqual([200, 200]);
    }
    // Each of them, reading the database or not, waited for a slice of the run, not all of it.
    const left = await due();
    console.log(`[poruch] digest start-up test: ${left} alerts still due after the requests`);
    expect(left).toBeGreaterThan(0);
    // And the run goes on to the end: one digest each.
    await waitUntil(async () => (await due()) === 0, 100_000, 'the digest run');
    const [queued] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`SELECT count(DISTINCT recipient)::int AS n FROM mail_outbox WHERE template = 'alertDigest'`,
      ),
    );
    expect(queued!.n).toBe(SUBSCRIPTIONS);
  });

  it('re-confirmation: the database answers between its batches', async () => {
    const [owner] = rowsOf<{ id: string }>(
      await database.db.execute(sql`INSERT INTO accounts (email, password_hash, type)
        VALUES ('owner@startup.test', 'x', 'PARTNER') RETURNING id`),
    );
    await database.db.execute(sql`
      INSERT INTO services (name, country_code, category, status, owner_id, confirmed_at)
      SELECT 'Сервіс ' || g, 'PL', 'food', 'approved', ${owner!.id}::uuid,
             now() - interval '13 months'
      FROM generate_series(1, ${SUBSCRIPTIONS}::int) g`);
    const unmailed = async () =>
      rowsOf<{ n: number }>(
        await database.db.execute(sql`SELECT count(*)::int AS n FROM services
          WHERE owner_id = ${owner!.id}::uuid AND reconfirm_mailed_at IS NULL`),
      )[0]!.n;
    const run = runReconfirmation({
      db: database.db,
      outbox: new Outbox('startup.test'),
      publicUrl: 'http://localhost:8080',
      secret: 'a secret of the re-confirmation links',
    });
    for (let i = 0; i < PINGS; i++) await database.db.execute(sql`SELECT 1`);
    // Each read waited for a batch, not for the run.
    expect(await unmailed()).toBeGreaterThan(0);
    expect((await run).mailed).toBe(SUBSCRIPTIONS);
    expect(await unmailed()).toBe(0);
  });
});
