/**
 * Search benchmark: searchServices and searchVacancies on 100k services and 300k vacancies, on
 * PGlite and on PostgreSQL, in one run.
 *
 *   pnpm --filter @poruch/server exec tsx bench/search.bench.ts [--services 100000]
 *     [--vacancies 300000] [--requests 300] [--pg postgres://postgres:postgres@127.0.0.1:5432/postgres]
 *     [--duration 10] [--no-pg] [--no-pglite] [--quick]
 *
 * Per database: seeding time (seedSynthetic, so the search triggers run on every row), then
 * p50/p95 of searchServices over a mixed query set drawn from the generated rows (exact words,
 * prefixes, typos of 1 and 2 edits, KMU-transliterated words, two-word queries, queries with
 * filters, filters alone, near/radius, frequent words) and of searchVacancies, in-process with
 * the result cache off; then requests/s at 50 connections with autocannon over HTTP on the same
 * server: the same query set with the cache on and off, and /healthz (the ceiling). `--quick`:
 * 10k services, 30k vacancies, 150 searches, 3 s per autocannon run (CI-sized). Prints a
 * Markdown table for docs/performance.md.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  serviceSearchQuerySchema,
  vacancySearchQuerySchema,
  type ServiceSearchQuery,
  type VacancySearchQuery,
} from '@poruch/core';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/index.js';
import {
  searchServices,
  searchVacancies,
  setSearchCache,
  transliterate,
} from '../src/search/index.js';
import { Random } from '../src/seed/random.js';
import { seedSynthetic } from '../src/seed/synthetic.js';
import { cannon, pct, postgresDatabase, serveApp } from './common.js';

const { values: args } = parseArgs({
  options: {
    services: { type: 'string' },
    vacancies: { type: 'string' },
    requests: { type: 'string' },
    duration: { type: 'string' },
    quick: { type: 'boolean', default: false },
    pg: {
      type: 'string',
      default:
        process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    },
    'no-pg': { type: 'boolean', default: false },
    'no-pglite': { type: 'boolean', default: false },
  },
});
const SERVICES = Number(args.services ?? (args.quick ? 10_000 : 100_000));
const VACANCIES = Number(args.vacancies ?? SERVICES * 3);
const REQUESTS = Number(args.requests ?? (args.quick ? 150 : 450));
const DURATION = Number(args.duration ?? (args.quick ? 3 : 10));

const fmt = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

type Kind =
  | 'exact'
  | 'prefix'
  | 'typo'
  | 'translit'
  | 'two words'
  | 'q + filters'
  | 'filters only'
  | 'near + radius'
  | 'frequent word';
interface Sample {
  kind: Kind;
  query: Record<string, string>;
}

/** One or two letters changed, as people mistype: 1 edit under 8 letters, 2 from 8. */
function typo(word: string, random: Random): string {
  const chars = [...word];
  const edits = chars.length >= 8 ? 2 : 1;
  for (let e = 0; e < edits; e++) {
    const i = random.int(1, chars.length - 2);
    if (random.chance(0.5)) [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
    else chars[i] = chars[i - 1]!;
  }
  return chars.join('');
}

/** A mixed query set drawn from the generated rows. */
async function querySet(database: Database): Promise<Sample[]> {
  const random = new Random(7);
  const rows = rowsOf<{
    name: string;
    country_code: string;
    category: string | null;
    lat: number | null;
    lng: number | null;
  }>(
    await database.db.execute(sql`
      SELECT name, country_code, category, lat, lng FROM services
       WHERE status = 'approved' ORDER BY md5(id::text) LIMIT 400`),
  );
  const words = (name: string) =>
    name
      .split(/[^\p{L}]+/u)
      .filter((w) => [...w].length >= 4)
      .map((w) => w.toLowerCase());
  const samples: Sample[] = [];
  const frequent = ['українська', 'Ukrainian', 'послуги', 'services', 'допомога', 'help'];
  for (const [i, row] of rows.entries()) {
    const ws = words(row.name);
    const word = ws.length ? random.pick(ws) : 'перукарня';
    const cyrillic = /\p{Script=Cyrillic}/u.test(word);
    const near = row.lat != null ? `${row.lat},${row.lng}` : '50.45,30.52';
    switch (i % 9) {
      case 0:
        samples.push({ kind: 'exact', query: { q: word } });
        break;
      case 1:
        samples.push({ kind: 'prefix', query: { q: [...word].slice(0, 4).join('') } });
        break;
      case 2:
        samples.push({ kind: 'typo', query: { q: typo(word, random) } });
        break;
      case 3:
        samples.push({
          kind: 'translit',
          query: { q: cyrillic ? transliterate(word).toLowerCase() : word },
        });
        break;
      case 4:
        samples.push({ kind: 'two words', query: { q: ws.slice(0, 2).join(' ') || word } });
        break;
      case 5:
        samples.push({
          kind: 'q + filters',
          query: {
            q: word,
            country: row.country_code,
            ...(row.category ? { category: row.category } : {}),
          },
        });
        break;
      case 6:
        samples.push({
          kind: 'filters only',
          query: {
            country: row.country_code,
            ...(row.category ? { category: row.category } : {}),
            ...(random.chance(0.5) ? { hasVacancy: 'true' } : {}),
          },
        });
        break;
      case 7:
        samples.push({
          kind: 'near + radius',
          query: { q: word, near, radiusKm: '50', sort: 'distance' },
        });
        break;
      case 8:
        samples.push({ kind: 'frequent word', query: { q: random.pick(frequent) } });
        break;
    }
  }
  return samples;
}

interface Stats {
  p50: number;
  p95: number;
  n: number;
  hits: number;
}
function stats(times: number[], hits: number): Stats {
  const s = [...times].sort((a, b) => a - b);
  return { p50: pct(s, 50), p95: pct(s, 95), n: s.length, hits: hits / Math.max(1, s.length) };
}

interface Result {
  kind: string;
  seedMs: number;
  words: number;
  byKind: Record<string, Stats>;
  mixed: Stats;
  vacancies: Stats;
  vacanciesQ: Stats;
  rpsCached: number;
  rpsUncached: number;
  rpsHealth: number;
}

async function benchOne(kind: string, database: Database): Promise<Result> {
  const db = database.db;
  console.error(`[${kind}] seeding ${SERVICES} services and ${VACANCIES} vacancies…`);
  const t0 = performance.now();
  await seedSynthetic(db, { services: SERVICES, vacancies: VACANCIES, seed: 1 });
  const seedMs = performance.now() - t0;
  console.error(`[${kind}] seeded in ${(seedMs / 1000).toFixed(1)} s; vacuum analyze…`);
  // After a bulk load, as an operator would (and as autovacuum does on PostgreSQL): it also
  // merges the GIN pending lists.
  await db.execute(sql`VACUUM ANALYZE services`);
  await db.execute(sql`VACUUM ANALYZE vacancies`);
  await db.execute(sql`VACUUM ANALYZE search_words`);
  const [{ n: words }] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM search_words`),
  ) as [{ n: number }];

  const samples = await querySet(database);
  const parsed = samples.map((s) => ({
    ...s,
    parsed: serviceSearchQuerySchema.parse(s.query) as ServiceSearchQuery,
  }));
  // The search itself: the result cache stays off until the HTTP runs.
  setSearchCache(false);
  // Warm-up: plans, caches, JIT of the WebAssembly.
  for (const s of parsed.slice(0, 50)) await searchServices(db, s.parsed);

  const times = new Map<string, number[]>();
  const hits = new Map<string, number>();
  const all: number[] = [];
  let allHits = 0;
  for (let r = 0; r < REQUESTS; r++) {
    const s = parsed[r % parsed.length]!;
    const t = performance.now();
    const page = await searchServices(db, s.parsed);
    const dt = performance.now() - t;
    all.push(dt);
    if (page.total > 0) {
      allHits++;
      hits.set(s.kind, (hits.get(s.kind) ?? 0) + 1);
    }
    times.set(s.kind, [...(times.get(s.kind) ?? []), dt]);
  }
  const byKind: Record<string, Stats> = {};
  for (const [k, v] of times) byKind[k] = stats(v, hits.get(k) ?? 0);

  // Vacancies: filters alone, and with a query (job titles and words of requirements).
  const vq = [
    'кухар',
    'kukhar',
    'водій',
    'vodii',
    'developer',
    'прибиральниця',
    'перукар',
    'nurse',
  ];
  const countries = ['PL', 'DE', 'CZ', 'GB', 'IT', 'ES'];
  const vTimes: number[] = [];
  const vqTimes: number[] = [];
  let vHits = 0;
  let vqHits = 0;
  const vacancyQueries = Array.from({ length: REQUESTS }, (_, i) =>
    vacancySearchQuerySchema.parse(
      i % 2
        ? { q: vq[i % vq.length], ...(i % 4 === 1 ? { country: countries[i % 6] } : {}) }
        : { country: countries[i % 6], ...(i % 4 === 0 ? { experience: 'any' } : {}) },
    ),
  ) as VacancySearchQuery[];
  for (const q of vacancyQueries.slice(0, 20)) await searchVacancies(db, q);
  for (const q of vacancyQueries) {
    const t = performance.now();
    const page = await searchVacancies(db, q);
    const dt = performance.now() - t;
    if (q.q) {
      vqTimes.push(dt);
      if (page.total) vqHits++;
    } else {
      vTimes.push(dt);
      if (page.total) vHits++;
    }
  }
  const { rpsCached, rpsUncached, rpsHealth } = await throughput(kind, database, samples);
  return {
    kind,
    seedMs,
    words,
    byKind,
    mixed: stats(all, allHits),
    vacancies: stats(vTimes, vHits),
    vacanciesQ: stats(vqTimes, vqHits),
    rpsCached,
    rpsUncached,
    rpsHealth,
  };
}

/**
 * Requests/s at 50 connections over HTTP, one server: GET /api/v1/services over the mixed query
 * set with the result cache off, then on (filled by one pass first, so every query is a repeat:
 * the steady state of popular queries, not of a stream of new ones), then /healthz.
 */
async function throughput(kind: string, database: Database, samples: Sample[]) {
  const { base, close } = await serveApp(database);
  const requests = samples.map((s) => ({
    method: 'GET' as const,
    path: `/api/v1/services?${new URLSearchParams(s.query).toString()}`,
  }));
  try {
    const rps: Record<string, number> = {};
    for (const [name, cache] of [
      ['uncached', false],
      ['cached', true],
    ] as const) {
      setSearchCache(cache);
      // With the cache on, measure the steady state of repeated queries: fill it first.
      if (cache) for (const r of requests) await fetch(`${base}${r.path}`);
      console.error(`[${kind}] autocannon services (cache ${cache ? 'on' : 'off'})…`);
      const run = await cannon(DURATION, { url: base, requests });
      if (run.non2xx) console.error(`[${kind}] services non-2xx: ${run.non2xx}`);
      rps[name] = run.requests.average;
    }
    console.error(`[${kind}] autocannon /healthz…`);
    rps.health = (await cannon(DURATION, { url: `${base}/healthz` })).requests.average;
    return { rpsCached: rps.cached!, rpsUncached: rps.uncached!, rpsHealth: rps.health };
  } finally {
    setSearchCache(true);
    await close(); // closes the database too
  }
}

const results: Result[] = [];
if (!args['no-pglite']) {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    results.push(await benchOne('PGlite', database));
  } finally {
    await database.close().catch(() => {}); // already closed with the app
  }
}
if (!args['no-pg']) {
  const { database, drop } = await postgresDatabase(args.pg);
  try {
    results.push(await benchOne('PostgreSQL', database));
  } finally {
    await drop();
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `\n${new Date().toISOString().slice(0, 10)} · ${cpu} × ${os.cpus().length} · ` +
    `${Math.round(os.totalmem() / 2 ** 30)} GB · Node ${process.version} · ` +
    `${SERVICES} services, ${VACANCIES} vacancies · ${REQUESTS} searches per database · ` +
    `autocannon ${DURATION} s × 50 connections · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
);
const head = `| | ${results.map((r) => r.kind).join(' | ')} |`;
console.log(head);
console.log(`|---|${results.map(() => '---').join('|')}|`);
const row = (label: string, cell: (r: Result) => string) =>
  console.log(`| ${label} | ${results.map(cell).join(' | ')} |`);
const cellOf = (s: Stats | undefined) =>
  s ? `${fmt(s.p50)} / **${fmt(s.p95)}** (${Math.round(s.hits * 100)}% hit)` : '–';
row('seeding (triggers included)', (r) => `${(r.seedMs / 1000).toFixed(1)} s`);
row('distinct words (search_words)', (r) => String(r.words));
row('**searchServices, mixed** p50 / p95', (r) => cellOf(r.mixed));
for (const k of Object.keys(results[0]?.byKind ?? {})) {
  row(`· ${k}`, (r) => cellOf(r.byKind[k]));
}
row('searchVacancies, filters', (r) => cellOf(r.vacancies));
row('searchVacancies, with q', (r) => cellOf(r.vacanciesQ));
const share = (n: number, r: Result) =>
  `${Math.round(n)} (${Math.round((n / r.rpsHealth) * 100)}%)`;
row('services req/s, 50 conn., cache off (% of ceiling)', (r) => share(r.rpsUncached, r));
row('services req/s, 50 conn., cache on (% of ceiling)', (r) => share(r.rpsCached, r));
row('`/healthz` req/s, 50 conn. (ceiling)', (r) => String(Math.round(r.rpsHealth)));
