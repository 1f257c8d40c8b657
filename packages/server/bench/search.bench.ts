/**
 * Search benchmark: searchServices and searchVacancies on 100k services and 300k vacancies, on
 * PGlite and on PostgreSQL, in one run.
 *
 *   pnpm --filter @poruch/server exec tsx bench/search.bench.ts [--services 100000]
 *     [--vacancies 300000] [--requests 300] [--pg postgres://…]
 *     [--duration 10] [--no-pg] [--no-pglite] [--quick] [--data-dir /tmp/poruch-search-bench]
 *     [--no-throughput]
 *
 * Per database: seeding time (seedSynthetic, so the search triggers run on every row), then
 * p50/p95 of searchServices over a mixed query set drawn from the generated rows (exact words,
 * prefixes, typos of 1 and 2 edits, KMU-transliterated words, two-word queries, queries with
 * filters, filters alone, near/radius, frequent words), of search as you type (never-seen
 * prefixes of 2 to 6 letters of other services' name words, half Cyrillic, half Latin; each
 * through the word index and through the SQL path alone (the index off), in turn; the index is
 * built first, its build time and the memory it keeps measured)
 * and of searchVacancies, in-process with the result cache off; then, over HTTP on one server
 * (see `throughput`): the profile fetch
 * (`GET /api/v1/services/:id` of random approved services: p50/p95 one at a time, each a first
 * view read from the database, then requests/s with the profiles read every time and with them
 * kept in memory), and requests/s at 50 connections with autocannon: repeated popular queries (cache
 * warm), a mix of repeats and never-seen queries, never-seen queries only (cache off), the
 * never-seen prefixes before and after (cache off), and /healthz (the ceiling).
 * `--quick`: 10k services, 30k vacancies, 150 searches, 3 s per autocannon run (CI-sized).
 * `--data-dir DIR` keeps the seeded data between runs: PGlite's data directory as a tarball in
 * DIR (loaded into memory on the next run), and the PostgreSQL database under a fixed name (not
 * dropped). `--no-throughput` skips the HTTP runs. Prints a Markdown table for
 * docs/performance.md.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  serviceSearchQuerySchema,
  vacancySearchQuerySchema,
  type ServiceSearchQuery,
  type VacancySearchQuery,
} from '@poruch/core';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/index.js';
import {
  searchServices,
  searchVacancies,
  setSearchCache,
  transliterate,
} from '../src/search/index.js';
import { buildWordIndex, setWordIndex, wordIndexBytes } from '../src/search/wordIndex.js';
import { Random } from '../src/seed/random.js';
import { seedSynthetic } from '../src/seed/synthetic.js';
import { benchArgs, cannon, pct, postgresDatabase, serveApp } from './common.js';

const args = benchArgs({
  services: { type: 'string' },
  vacancies: { type: 'string' },
  requests: { type: 'string' },
  duration: { type: 'string' },
  'no-pglite': { type: 'boolean', default: false },
  'no-throughput': { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
});
// A bare `--data-dir` (no folder) keeps nothing.
const DATA_DIR = typeof args['data-dir'] === 'string' ? args['data-dir'] : undefined;
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

/**
 * Queries no one asked before, for the throughput runs: prefixes (as typed) and typos of the
 * words of other services' names, none of them in `samples`, in random order.
 */
async function freshQueries(database: Database, samples: Sample[]): Promise<string[]> {
  const random = new Random(11);
  const rows = rowsOf<{ name: string }>(
    await database.db.execute(sql`
      SELECT name FROM services WHERE status = 'approved' ORDER BY md5(id::text) OFFSET 400 LIMIT 2000`),
  );
  const seen = new Set(samples.map((s) => s.query.q?.toLowerCase()));
  const out = new Set<string>();
  for (const { name } of rows) {
    for (const w of name.split(/[^\p{L}]+/u).filter((x) => [...x].length >= 4)) {
      const word = w.toLowerCase();
      const chars = [...word];
      const q = random.chance(0.5)
        ? chars.slice(0, random.int(3, chars.length)).join('')
        : typo(word, random);
      if (!seen.has(q)) out.add(q);
    }
  }
  const list = [...out];
  for (let i = list.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/**
 * Search as you type: prefixes of 2 to 6 letters of the words of other services' names, as a
 * visitor types them, half in Cyrillic and half in Latin letters, distinct and none of them in
 * `samples`, in random order. Each is asked once per pass with the result cache off, so every
 * request is a search no one asked before.
 */
async function prefixQueries(
  database: Database,
  samples: Sample[],
): Promise<{ q: string; script: 'Cyrillic' | 'Latin' }[]> {
  const random = new Random(13);
  const rows = rowsOf<{ name: string }>(
    await database.db.execute(sql`
      SELECT name FROM services WHERE status = 'approved' ORDER BY md5(id::text || 'prefix')
       LIMIT 3000`),
  );
  const seen = new Set(samples.map((s) => s.query.q?.toLowerCase()));
  const out = { Cyrillic: new Set<string>(), Latin: new Set<string>() };
  for (const { name } of rows) {
    for (const w of name.split(/[^\p{L}]+/u).filter((x) => [...x].length >= 2)) {
      const chars = [...w.toLowerCase()];
      const q = chars.slice(0, random.int(2, Math.min(6, chars.length))).join('');
      const script = /\p{Script=Cyrillic}/u.test(q) ? 'Cyrillic' : 'Latin';
      if (!seen.has(q)) out[script].add(q);
    }
  }
  const n = Math.min(out.Cyrillic.size, out.Latin.size);
  const list = [
    ...[...out.Cyrillic].slice(0, n).map((q) => ({ q, script: 'Cyrillic' as const })),
    ...[...out.Latin].slice(0, n).map((q) => ({ q, script: 'Latin' as const })),
  ];
  for (let i = list.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
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
  /** Null when the seeded data was reused (--data-dir). */
  seedMs: number | null;
  words: number;
  byKind: Record<string, Stats>;
  mixed: Stats;
  vacancies: Stats;
  vacanciesQ: Stats;
  /** Search as you type: never-seen prefixes of 2 to 6 letters, in all and per script. */
  prefixes: Stats;
  prefixBy: Record<string, Stats>;
  /** The word index: build time, memory kept (MB). */
  index?: { buildMs: number; heapMb: number; rssMb: number; estimateMb: number };
  rps?: Throughput;
}

/** Seeds the database (unless `seeded`), then VACUUM ANALYZE. */
async function prepare(kind: string, database: Database, seeded: boolean) {
  const db = database.db;
  let seedMs: number | null = null;
  if (!seeded) {
    console.error(`[${kind}] seeding ${SERVICES} services and ${VACANCIES} vacancies…`);
    const t0 = performance.now();
    await seedSynthetic(db, { services: SERVICES, vacancies: VACANCIES, seed: 1 });
    seedMs = performance.now() - t0;
    console.error(`[${kind}] seeded in ${(seedMs / 1000).toFixed(1)} s`);
  } else console.error(`[${kind}] reusing the seeded data`);
  // After a bulk load, as an operator would (and as autovacuum does on PostgreSQL): it also
  // merges the GIN pending lists. A loaded dump has no statistics yet either.
  console.error(`[${kind}] vacuum analyze…`);
  await db.execute(sql`VACUUM ANALYZE services`);
  await db.execute(sql`VACUUM ANALYZE vacancies`);
  await db.execute(sql`VACUUM ANALYZE search_words`);
  return seedMs;
}

async function benchOne(kind: string, database: Database, seedMs: number | null): Promise<Result> {
  const db = database.db;
  const [{ n: words }] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM search_words`),
  ) as [{ n: number }];

  const samples = await querySet(database);
  const parsed = samples.map((s) => ({
    ...s,
    parsed: serviceSearchQuerySchema.parse(s.query) as ServiceSearchQuery,
  }));
  // The word index: built (and kept) before the searches; its memory is the heap's and the RSS's
  // growth across the build, after a full collection each side.
  v8.setFlagsFromString('--expose_gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const memory = () => {
    gc();
    gc();
    return process.memoryUsage();
  };
  const m0 = memory();
  const t0 = performance.now();
  if (!(await buildWordIndex(db))) throw new Error('the word index did not build');
  const buildMs = performance.now() - t0;
  const m1 = memory();
  const index = {
    buildMs,
    heapMb: (m1.heapUsed + m1.arrayBuffers - m0.heapUsed - m0.arrayBuffers) / 2 ** 20,
    rssMb: (m1.rss - m0.rss) / 2 ** 20,
    estimateMb: (await wordIndexBytes(db)) / 2 ** 20,
  };
  console.error(`[${kind}] word index`, index);
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

  // Search as you type: each prefix once per mode (the cache is off anyway), after a few
  // warm-up ones; before (the SQL path, the word index off) and after (through the index),
  // alternately.
  const prefixes = await prefixQueries(database, samples);
  const asTyped = (q: string) => serviceSearchQuerySchema.parse({ q }) as ServiceSearchQuery;
  for (const p of prefixes.slice(-20)) await searchServices(db, asTyped(p.q));
  const prefixTimes = { Cyrillic: [] as number[], Latin: [] as number[], before: [] as number[] };
  const prefixHits = { Cyrillic: 0, Latin: 0, before: 0 };
  for (const [i, p] of prefixes.slice(0, REQUESTS).entries()) {
    for (const before of i % 2 ? [true, false] : [false, true]) {
      setWordIndex(!before);
      const t = performance.now();
      const page = await searchServices(db, asTyped(p.q));
      prefixTimes[before ? 'before' : p.script].push(performance.now() - t);
      if (page.total > 0) prefixHits[before ? 'before' : p.script]++;
    }
  }
  setWordIndex(true);
  const prefixBy: Record<string, Stats> = {
    Cyrillic: stats(prefixTimes.Cyrillic, prefixHits.Cyrillic),
    Latin: stats(prefixTimes.Latin, prefixHits.Latin),
    before: stats(prefixTimes.before, prefixHits.before),
  };
  const prefixAll = stats(
    [...prefixTimes.Cyrillic, ...prefixTimes.Latin],
    prefixHits.Cyrillic + prefixHits.Latin,
  );

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
  const rps = args['no-throughput']
    ? undefined
    : await throughput(
        kind,
        database,
        samples,
        prefixes.map((p) => p.q),
      );
  return {
    kind,
    seedMs,
    words,
    byKind,
    mixed: stats(all, allHits),
    vacancies: stats(vTimes, vHits),
    vacanciesQ: stats(vqTimes, vqHits),
    prefixes: prefixAll,
    prefixBy,
    index,
    rps,
  };
}

interface Run {
  rps: number;
  p99: number;
}
interface Throughput {
  /** `GET /api/v1/services/:id` of random approved services, one at a time, each read. */
  profile: Stats;
  /** The same profiles at 50 connections, read from the database every time (cache off). */
  profileRead: Run;
  /** The same profiles at 50 connections, kept in memory (cache on, each fetched before). */
  profileKept: Run;
  /** Every request repeats one of the query set's 400 queries, the cache warm. */
  popular: Run;
  /** 4 of 5 requests repeat a query of the set, 1 of 5 is a query never asked before. */
  mix: Run;
  /** The query set with the result cache off: every request is a search. */
  uncached: Run;
  /** Never-seen prefixes of 2 to 6 letters (search as you type), the result cache off. */
  prefix: Run;
  /** The same through the SQL path (the word index off). */
  prefixBefore: Run;
  /** `/healthz`: the ceiling. */
  health: Run;
}

/**
 * Requests/s at 50 connections over HTTP, one server: GET /api/v1/services (1) over the mixed
 * query set with the cache warm (filled by one pass first: the steady state of popular
 * queries), (2) a mix of those repeats with never-seen queries (prefixes and typos of other
 * services' words) one request in five, (3) over the query set with the result cache off (a
 * stream of new queries), then /healthz (the ceiling).
 */
async function throughput(
  kind: string,
  database: Database,
  samples: Sample[],
  prefixes: string[],
): Promise<Throughput> {
  const fresh = await freshQueries(database, samples);
  const ids = rowsOf<{ id: string }>(
    await database.db.execute(sql`
      SELECT id FROM services WHERE status = 'approved' ORDER BY md5(id::text || 'profile')
       LIMIT ${REQUESTS}`),
  ).map((r) => r.id);
  const { base, close } = await serveApp(database);
  const paths = samples.map((s) => `/api/v1/services?${new URLSearchParams(s.query).toString()}`);
  const requests = paths.map((p) => ({ method: 'GET' as const, path: p }));
  const run = async (name: string, opts: Parameters<typeof cannon>[1]): Promise<Run> => {
    console.error(`[${kind}] autocannon ${name}…`);
    const r = await cannon(DURATION, opts);
    if (r.non2xx) console.error(`[${kind}] ${name}: non-2xx ${r.non2xx}`);
    return { rps: r.requests.average, p99: r.latency.p99 };
  };
  try {
    // The profile fetch: each id once, read from the database (the result cache is still off),
    // after a few warm-up requests.
    for (const id of ids.slice(0, 20)) await (await fetch(`${base}/api/v1/services/${id}`)).json();
    const profileTimes: number[] = [];
    let found = 0;
    for (const id of ids) {
      const t = performance.now();
      const res = await fetch(`${base}/api/v1/services/${id}`);
      await res.json();
      profileTimes.push(performance.now() - t);
      if (res.ok) found++;
    }
    const profile = stats(profileTimes, found);
    const profileRequests = ids.map((id) => ({
      method: 'GET' as const,
      path: `/api/v1/services/${id}`,
    }));
    const profileRead = await run('profile, read', { url: base, requests: profileRequests });
    setSearchCache(true);
    for (const id of ids) await (await fetch(`${base}/api/v1/services/${id}`)).json();
    const profileKept = await run('profile, kept', { url: base, requests: profileRequests });

    for (const p of paths) await fetch(`${base}${p}`);
    const popular = await run('services, popular (cache warm)', { url: base, requests });
    let n = 0;
    let used = 0;
    const mix = await run('services, 1 in 5 never seen', {
      url: base,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => {
            const i = n++;
            const path =
              i % 5 === 4 && used < fresh.length
                ? `/api/v1/services?${new URLSearchParams({ q: fresh[used++]! }).toString()}`
                : paths[i % paths.length]!;
            return { ...req, path };
          },
        },
      ],
    });
    if (used >= fresh.length) console.error(`[${kind}] ran out of fresh queries (${used})`);
    setSearchCache(false);
    const uncached = await run('services, cache off', { url: base, requests });
    const prefixRequests = prefixes.map((q) => ({
      method: 'GET' as const,
      path: `/api/v1/services?${new URLSearchParams({ q }).toString()}`,
    }));
    setWordIndex(false);
    const prefixBefore = await run('services, never-seen prefixes, before (SQL)', {
      url: base,
      requests: prefixRequests,
    });
    setWordIndex(true);
    const prefix = await run('services, never-seen prefixes', {
      url: base,
      requests: prefixRequests,
    });
    setSearchCache(true);
    // The ceiling, right after the prefixes (the machine's load the same).
    const health = await run('/healthz', { url: `${base}/healthz` });
    return {
      profile,
      profileRead,
      profileKept,
      popular,
      mix,
      uncached,
      prefix,
      prefixBefore,
      health,
    };
  } finally {
    setSearchCache(true);
    await close(); // closes the database too
  }
}

/** PGlite, in memory: seeded, or loaded from the dump in --data-dir. */
async function pglite() {
  const dump = DATA_DIR ? path.join(DATA_DIR, `pglite-${SERVICES}-${VACANCIES}.tar`) : undefined;
  const saved = dump ? await fs.readFile(dump).catch(() => undefined) : undefined;
  const database = await openDatabase({
    dataDir: 'memory://',
    ...(saved ? { loadDataDir: new Blob([saved]) } : {}),
  });
  const seedMs = await prepare('PGlite', database, !!saved);
  if (dump && !saved) {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const tar = await client.dumpDataDir('none');
    await fs.mkdir(path.dirname(dump), { recursive: true });
    await fs.writeFile(`${dump}.tmp`, Buffer.from(await tar.arrayBuffer()));
    await fs.rename(`${dump}.tmp`, dump);
    console.error(`[PGlite] seeded data saved to ${dump}`);
  }
  return { database, seedMs };
}

/** PostgreSQL: a new database, or with --data-dir one kept under a fixed name. */
async function postgres() {
  if (!DATA_DIR) {
    const { database, drop } = await postgresDatabase(args.pg);
    return { database, drop, seedMs: await prepare('PostgreSQL', database, false) };
  }
  const name = `poruch_bench_${SERVICES}_${VACANCIES}`;
  const { database, created } = await postgresDatabase(args.pg, name);
  let seeded = !created;
  if (seeded) {
    const [{ n }] = rowsOf<{ n: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n FROM services`),
    ) as [{ n: number }];
    seeded = n === SERVICES;
    if (!seeded) {
      console.error(`[PostgreSQL] ${name} has ${n} services: seeding afresh`);
      await database.db.execute(sql`TRUNCATE services, vacancies CASCADE`);
    }
  }
  const seedMs = await prepare('PostgreSQL', database, seeded);
  return { database, drop: () => database.close().catch(() => {}), seedMs };
}

const results: Result[] = [];
if (!args['no-pglite']) {
  const { database, seedMs } = await pglite();
  try {
    results.push(await benchOne('PGlite', database, seedMs));
  } finally {
    await database.close().catch(() => {}); // already closed with the app
  }
}
if (!args['no-pg']) {
  const { database, drop, seedMs } = await postgres();
  try {
    results.push(await benchOne('PostgreSQL', database, seedMs));
  } finally {
    await drop();
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `\n${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${cpu} × ${os.cpus().length} · ` +
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
row(`seeding ${SERVICES} + ${VACANCIES}`, (r) =>
  r.seedMs == null ? 'reused' : `${(r.seedMs / 1000).toFixed(1)} s`,
);
row('distinct words (search_words)', (r) => String(r.words));
row('**searchServices, mixed** p50 / p95', (r) => cellOf(r.mixed));
for (const k of Object.keys(results[0]?.byKind ?? {})) {
  row(`· ${k}`, (r) => cellOf(r.byKind[k]));
}
row('**searchServices, never-seen prefixes of 2–6 letters** p50 / p95', (r) => cellOf(r.prefixes));
for (const script of ['Cyrillic', 'Latin']) row(`· ${script}`, (r) => cellOf(r.prefixBy[script]));
row('· all, before (SQL path, the word index off)', (r) => cellOf(r.prefixBy.before));
row('word index: build, heap + array buffers, RSS growth (estimate from its arrays)', (r) =>
  r.index
    ? `${(r.index.buildMs / 1000).toFixed(1)} s, ${r.index.heapMb.toFixed(1)} MB, ` +
      `${r.index.rssMb.toFixed(1)} MB (${r.index.estimateMb.toFixed(1)} MB)`
    : '–',
);
row('searchVacancies, filters', (r) => cellOf(r.vacancies));
row('searchVacancies, with q', (r) => cellOf(r.vacanciesQ));
type RunName =
  'profileRead' | 'profileKept' | 'popular' | 'mix' | 'uncached' | 'prefix' | 'prefixBefore';
const share = (r: Result, run: RunName) => {
  if (!r.rps) return '–';
  const { rps, p99 } = r.rps[run];
  return `${Math.round(rps)} (${Math.round((rps / r.rps.health.rps) * 100)}%, p99 ${p99} ms)`;
};
row('profile `GET services/:id` over HTTP, first view, p50 / p95', (r) => cellOf(r.rps?.profile));
row('profile req/s, read every time (% of ceiling)', (r) => share(r, 'profileRead'));
row('profile req/s, kept in memory (% of ceiling)', (r) => share(r, 'profileKept'));
row('services req/s, popular queries, cache warm (% of ceiling)', (r) => share(r, 'popular'));
row('services req/s, 1 in 5 never seen (% of ceiling)', (r) => share(r, 'mix'));
row('services req/s, cache off (% of ceiling)', (r) => share(r, 'uncached'));
row('services req/s, never-seen prefixes (% of ceiling)', (r) => share(r, 'prefix'));
row('· before (SQL path, the word index off)', (r) => share(r, 'prefixBefore'));
row('`/healthz` req/s (ceiling)', (r) =>
  r.rps ? `${Math.round(r.rps.health.rps)} (p99 ${r.rps.health.p99} ms)` : '–',
);
