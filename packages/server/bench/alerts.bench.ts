/**
 * Alert digest benchmark: the daily run of 100,000 confirmed subscriptions after a day with 1,000
 * newly approved services, on PGlite (on disk) and on PostgreSQL.
 *
 *   pnpm --filter @poruch/server exec tsx bench/alerts.bench.ts [--subscriptions 100000]
 *     [--new 1000] [--services 20000] [--quick] [--pg postgres://…] [--no-pg]
 *
 * Per database: a synthetic catalogue (seedSynthetic, `--services`), `--new` of its approved
 * services approved within the last day (their `approved_at`), and `--subscriptions` daily alerts
 * whose last digest was a day ago, with filters as visitors make them: a country, a category or
 * both, a word of a service's name (with a country or not), a city within 5 to 100 km (with a
 * category or not), everything, and one in ten on vacancies (country, category, experience).
 * Then one `runDigests` at the clock's now: every digest computed and queued in the outbox. Target
 * ≤ 60 s on PGlite. Meanwhile a probe stands for the requests: a cheap query through the same
 * database every 20 ms, each one's wait from when it was due (the longest and the p99), and the
 * event loop's longest delay; on PGlite a request waits for the run's transaction in hand. `--quick`: 10,000 subscriptions, 5,000 services (CI-sized). Prints a
 * Markdown table for docs/performance.md.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { CATEGORY_KEYS, EXPERIENCE_KEYS } from '@poruch/core';
import { runDigests } from '../src/alerts/digest.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { Outbox } from '../src/mail/outbox.js';
import { Random } from '../src/seed/random.js';
import { seedSynthetic } from '../src/seed/synthetic.js';
import { benchArgs, pct, postgresDatabase } from './common.js';

const args = benchArgs({
  subscriptions: { type: 'string' },
  new: { type: 'string' },
  services: { type: 'string' },
});
const SUBSCRIPTIONS = Number(args.subscriptions ?? (args.quick ? 10_000 : 100_000));
const NEW = Number(args.new ?? 1000);
const SERVICES = Number(args.services ?? (args.quick ? 5000 : 20_000));
const DAY = 86_400_000;

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The catalogue, the day's approvals and the subscriptions. */
async function seed(database: Database, now: Date) {
  const { db } = database;
  const started = performance.now();
  await seedSynthetic(db, { services: SERVICES, vacancies: SERVICES, seed: 7 });
  // The day's approvals, spread over the last 24 hours.
  await db.execute(sql`
    UPDATE services SET approved_at =
      ${now.toISOString()}::timestamptz - (random() * interval '23 hours')
    WHERE id IN (SELECT id FROM services WHERE status = 'approved'
                 ORDER BY md5(id::text) LIMIT ${NEW})`);
  // What visitors filter by: the catalogue's own countries, words and places.
  const countries = rowsOf<{ c: string }>(
    await db.execute(sql`SELECT DISTINCT country_code AS c FROM services`),
  ).map((r) => r.c);
  const words = rowsOf<{ w: string }>(
    await db.execute(sql`SELECT DISTINCT split_part(name, ' ', 1) AS w FROM services
      WHERE length(split_part(name, ' ', 1)) >= 4 LIMIT 400`),
  ).map((r) => r.w);
  const places = rowsOf<{ lat: number; lng: number }>(
    await db.execute(sql`SELECT DISTINCT round(lat::numeric, 1)::float8 AS lat,
        round(lng::numeric, 1)::float8 AS lng FROM services WHERE lat IS NOT NULL LIMIT 300`),
  );
  const random = new Random(11);
  const since = new Date(now.getTime() - DAY - 60_000).toISOString();
  const chunk = 5000;
  for (let done = 0; done < SUBSCRIPTIONS; done += chunk) {
    const rows = Array.from({ length: Math.min(chunk, SUBSCRIPTIONS - done) }, (_, k) => {
      const i = done + k;
      const roll = random.next();
      const category = random.pick(CATEGORY_KEYS);
      let kind = 'services';
      let filters: Record<string, unknown>;
      if (roll < 0.1) {
        kind = 'vacancies';
        filters = {
          country: random.pick(countries),
          category: random.chance(0.5) ? category : 'all',
          ...(random.chance(0.3) ? { experience: random.pick(EXPERIENCE_KEYS) } : {}),
        };
      } else if (roll < 0.35) filters = { country: random.pick(countries), category };
      else if (roll < 0.5) filters = { country: random.pick(countries), category: 'all' };
      else if (roll < 0.6) filters = { category };
      else if (roll < 0.75) {
        filters = {
          q: random.pick(words),
          category: 'all',
          ...(random.chance(0.5) ? { country: random.pick(countries) } : {}),
        };
      } else if (roll < 0.97) {
        const p = random.pick(places);
        filters = {
          category: random.chance(0.5) ? category : 'all',
          near: { ...p, radiusKm: random.pick([5, 10, 25, 50, 100]), label: 'place' },
        };
      } else filters = { category: 'all' };
      return {
        email: `subscriber${i}@bench.test`,
        locale: i % 3 ? 'ua' : 'en_GB',
        kind,
        filters,
      };
    });
    await db.execute(sql`
      INSERT INTO alert_subscriptions
        (email, locale, kind, filters, frequency, confirmed_at, last_digest_at)
      SELECT r.email, r.locale, r.kind, r.filters, 'daily', ${since}::timestamptz,
             ${since}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r(email text, locale text, kind text, filters jsonb)`);
  }
  await db.execute(sql`ANALYZE`);
  return Math.round(performance.now() - started);
}

/** How often the probe asks the database during the run. */
const PROBE_MS = 20;

/**
 * What a request sees during the run: a cheap query through the same database every PROBE_MS,
 * each one's wait from when it was due (so a blocked event loop counts as well as a held
 * database), and the event loop's longest delay.
 */
function startProbe(database: Database) {
  const waits: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let stopped = false;
  const done = (async () => {
    let due = performance.now();
    while (!stopped) {
      due += PROBE_MS;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      await database.db.execute(sql`SELECT 1`);
      const answered = performance.now();
      waits.push(answered - due);
      // A long wait skips the probes that fell due meanwhile (one request at a time).
      if (answered > due) due = answered;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      loop.disable();
      const sorted = waits.sort((a, b) => a - b);
      return {
        n: sorted.length,
        max: Math.round(sorted.at(-1) ?? 0),
        p99: Math.round(sorted.length ? pct(sorted, 99) : 0),
        loop: Math.round(loop.max / 1e6),
      };
    },
  };
}

async function measure(name: string, database: Database) {
  const now = new Date();
  const seedMs = await seed(database, now);
  const distinct = rowsOf<{ n: number }>(
    await database.db.execute(
      sql`SELECT count(DISTINCT (kind, filters))::int AS n FROM alert_subscriptions`,
    ),
  )[0]!.n;
  const probe = startProbe(database);
  const started = performance.now();
  let firstBatch = 0;
  let batches = 0;
  const result = await runDigests({
    onBatch: () => {
      firstBatch ||= performance.now() - started;
      batches++;
    },
    db: database.db,
    outbox: new Outbox('bench.test'),
    publicUrl: 'https://poruch.example.org',
    secret: 'bench secret of the alert links',
    now: () => now,
  });
  const ms = Math.round(performance.now() - started);
  const stall = await probe.stop();
  const queued = rowsOf<{ n: number }>(
    await database.db.execute(
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE template = 'alertDigest'`,
    ),
  )[0]!.n;
  console.log(
    `[poruch] ${name}: seeded in ${(seedMs / 1000).toFixed(1)} s; ${result.subscriptions} due ` +
      `(${distinct} distinct searches), ${result.mails} digests (${queued} queued) with ` +
      `${result.pairs} items, in ${(ms / 1000).toFixed(1)} s (the first of ${batches} batches ` +
      `committed after ${(firstBatch / 1000).toFixed(1)} s); a query every ${PROBE_MS} ms ` +
      `waited at most ${stall.max} ms (p99 ${stall.p99} ms, ${stall.n} queries); the event ` +
      `loop's longest delay ${stall.loop} ms`,
  );
  return { name, ...result, distinct, ms, stall };
}

const results = [];
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-alerts-bench-'));
try {
  const pglite = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  try {
    results.push(await measure('PGlite (on disk)', pglite));
  } finally {
    await pglite.close();
  }
  if (!args['no-pg']) {
    const pg = await postgresDatabase(args.pg);
    try {
      results.push(await measure('PostgreSQL 15', pg.database));
    } finally {
      await pg.drop();
    }
  }
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}

console.log(
  `\n| database | subscriptions due | distinct searches | new services | digests queued | items listed | daily run | longest query wait (p99) | longest event-loop delay |`,
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.subscriptions.toLocaleString('en')} | ${r.distinct.toLocaleString('en')} | ` +
      `${NEW.toLocaleString('en')} | ${r.mails.toLocaleString('en')} | ` +
      `${r.pairs.toLocaleString('en')} | ${(r.ms / 1000).toFixed(1)} s | ` +
      `${r.stall.max} ms (${r.stall.p99} ms) | ${r.stall.loop} ms |`,
  );
}
const pgliteResult = results[0]!;
if (SUBSCRIPTIONS >= 100_000 && pgliteResult.ms > 60_000) {
  console.error(`[poruch] the daily run took ${pgliteResult.ms} ms on PGlite: over 60 s`);
  process.exitCode = 1;
}
