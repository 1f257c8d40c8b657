import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/index.js';
import { startChildServer, throwawayPostgres } from '../../__tests__/helpers/child.js';
import { startSmtp, type TestSmtp } from '../../__tests__/helpers/smtp.js';
import { waitUntil } from '../../mail/__tests__/helpers.js';

const SUBSCRIPTIONS = 1500;
const ITEMS = 5;
const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The server from source, running its digests every 100 ms in small transactions. */
const startChild = (env: Record<string, string>, until?: (output: string) => boolean) =>
  startChildServer(
    {
      ALERT_DIGEST_INTERVAL_MS: '100',
      ALERT_DIGEST_BATCH: '1',
      MAIL_POLL_MS: '100',
      MAIL_RATE_PER_MINUTE: '60000',
      MAIL_LEASE_SECONDS: '3',
      ...env,
    },
    180_000,
    { until },
  );

/**
 * Crash test: the digest run of 1,500 daily alerts is SIGKILLed in the middle, and the server
 * started again on the same data (on PostgreSQL, two servers at once): every subscriber ends with
 * one digest listing the five new services, none with two.
 */
describe(`alert digests across a crash (${onPostgres ? 'PostgreSQL, two instances' : 'PGlite on disk'})`, () => {
  let dataDir: string;
  let smtp: TestSmtp;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  const children: Awaited<ReturnType<typeof startChild>>[] = [];
  const open = () => openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, 'db') });

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-digest-crash-'));
    smtp = await startSmtp();
    if (onPostgres) {
      const throwaway = await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'poruch_digest');
      databaseUrl = throwaway.url;
      dropDatabase = throwaway.drop;
    }
    const database = await open();
    const { db } = database;
    await db.execute(sql`
      INSERT INTO services (name, country_code, category, status, approved_at)
      SELECT 'Новий сервіс ' || g, 'PL', 'food', 'approved', now() - interval '1 day'
      FROM generate_series(1, ${ITEMS}::int) g`);
    await db.execute(sql`
      INSERT INTO alert_subscriptions
        (email, locale, kind, filters, frequency, confirmed_at, last_digest_at)
      SELECT 'sub' || g || '@crash.test', CASE WHEN g % 2 = 0 THEN 'ua' ELSE 'en_GB' END,
             'services', '{"category":"food","country":"PL"}', 'daily',
             now() - interval '2 days', now() - interval '1 day'
      FROM generate_series(1, ${SUBSCRIPTIONS}::int) g`);
    await database.close();
  }, 120_000);

  afterAll(async () => {
    for (const c of children) await c.kill('SIGKILL');
    await smtp?.close();
    await dropDatabase();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('mails each subscriber once, whatever happens', { timeout: 480_000 }, async () => {
    const env = {
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const digests = () => smtp.messages.filter((m) => /: 5$/.test(m.subject ?? ''));
    // The alerts are due, and the run starts once the server listens. Its debug log says when a
    // batch (one subscription) has committed: the run is under way, and the server is killed at
    // once.
    const batches = (output: string) => output.split('alert digest batch committed').length - 1;
    const first = await startChild({ ...env, LOG_LEVEL: 'debug' }, (out) => batches(out) > 0);
    children.push(first);
    const committed = () => batches(first.output());
    await waitUntil(() => committed() > 0, 120_000, 'the first batch');
    await first.kill('SIGKILL');
    console.log(`[poruch] digest crash test: killed after ${committed()} batches`);
    expect(committed()).toBeLessThan(SUBSCRIPTIONS);

    const again = await Promise.all(
      Array.from({ length: onPostgres ? 2 : 1 }, () => startChild(env)),
    );
    children.push(...again);
    const recipients = () => new Set(digests().map((m) => m.to && JSON.stringify(m.to)));
    // Everyone, but for at most the mail in flight at the kill (docs/mail.md: unconfirmed).
    await waitUntil(() => recipients().size >= SUBSCRIPTIONS - 1, 180_000, 'every digest');
    // Whatever is still to come would be a duplicate: the servers stop only once their mail in
    // flight has its answer.
    await new Promise((r) => setTimeout(r, 1000));
    for (const c of again) await c.kill('SIGTERM');

    const all = digests();
    const perRecipient = new Map<string, number>();
    for (const m of all) {
      const to = JSON.stringify(m.to);
      perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    }
    expect([...perRecipient.values()].filter((n) => n > 1)).toEqual([]);
    for (const m of all) {
      expect(m.text?.match(/Новий сервіс \d/g)?.sort()).toEqual(
        Array.from({ length: ITEMS }, (_, i) => `Новий сервіс ${i + 1}`).sort(),
      );
    }

    const database = await open();
    const [row] = rowsOf<{ pending: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS pending FROM alert_subscriptions
        WHERE last_digest_at < now() - interval '1 day'`),
    );
    const [queued] = rowsOf<{ n: number; distinct: number; items: number; runs: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n,
          count(DISTINCT recipient)::int AS distinct,
          sum(jsonb_array_length(payload->'items'))::int AS items,
          count(DISTINCT split_part(idempotency_key, ':', 3))::int AS runs
        FROM mail_outbox WHERE template = 'alertDigest'`),
    );
    await database.close();
    // Every subscription done, one digest queued each, listing the five items.
    expect(row).toEqual({ pending: 0 });
    expect(queued).toMatchObject({
      n: SUBSCRIPTIONS,
      distinct: SUBSCRIPTIONS,
      items: SUBSCRIPTIONS * ITEMS,
    });
    // The kill fell in the middle of the run: two runs (or more) queued digests.
    expect(queued!.runs).toBeGreaterThanOrEqual(2);
  });
});
