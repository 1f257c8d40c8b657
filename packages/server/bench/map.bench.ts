/**
 * Map benchmark: 100k synthetic services on PGlite and on PostgreSQL, in one run.
 *
 *   pnpm --filter @poruch/server exec tsx bench/map.bench.ts [--services 100000] [--requests 400]
 *     [--duration 10] [--quick] [--pg postgres://…] [--no-pg] [--data <dir>]
 *
 * Measures, per database: seeding, the version check and the lean SELECT, cold build of the
 * unfiltered index (first request) and of one filtered index, map p50/p95 over HTTP at zooms 3,
 * 8 and 14 (random 1280×800 viewports centred on random visible services, so around populated
 * areas), the same with a text query (`q`) at each zoom, both a `q` never asked before on every
 * request (built from words of a random visible service's name, the viewport centred on it) and a
 * few popular ones asked again (the never-seen ones through the search's word index and, in
 * turn, through SQL alone, and through the index with the matches clustered by a supercluster built
 * for them, as before MapIndex.among: befores and after), and requests/s at 50 connections with autocannon for the map and
 * for /healthz (the ceiling) against the same server, and how soon a write made through another instance (straight
 * SQL and a version bump, as another server process does) shows on the map (target: under 3 s).
 * Prints a Markdown table for docs/performance.md.
 *
 * `--data <dir>`: the PGlite side in that folder, seeded on the first run and reused after (seeding
 * 100k takes minutes); the bench puts back what it changes.
 */
import os from 'node:os';
import { openDatabase, type Database } from '../src/db/index.js';
import { count, eq } from 'drizzle-orm';
import { services } from '../src/db/schema.js';
import {
  MapIndex,
  bumpMapVersion,
  readServices,
  readVersion,
  setMatchesFromIndex,
  toFeature,
} from '../src/map/index.js';
import { buildWordIndex, setWordIndex } from '../src/search/wordIndex.js';
import { Random } from '../src/seed/random.js';
import { seedSynthetic } from '../src/seed/synthetic.js';
import { benchArgs, cannon, pct, onPostgres, serveApp } from './common.js';

const args = benchArgs({
  services: { type: 'string' },
  vacancies: { type: 'string', default: '0' },
  requests: { type: 'string' },
  duration: { type: 'string' },
  data: { type: 'string' },
});
// --quick: a CI-sized run (10k services, 100 requests per zoom, 3 s per autocannon run).
const SERVICES = Number(args.services ?? (args.quick ? 10_000 : 100_000));
const REQUESTS = Number(args.requests ?? (args.quick ? 100 : 400));
const DURATION = Number(args.duration ?? (args.quick ? 3 : 10));
const ZOOMS = [3, 8, 14];

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const timed = async <T>(fn: () => Promise<T> | T): Promise<[T, number]> => {
  const t = performance.now();
  const value = await fn();
  return [value, performance.now() - t];
};

/** The bbox of a 1280×800 map centred on a point at a zoom (256-px tiles). */
function viewport(lat: number, lng: number, zoom: number, width = 1280, height = 800) {
  const scale = 256 * 2 ** zoom;
  const x = lng / 360 + 0.5;
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  const toLat = (py: number) =>
    (360 / Math.PI) * Math.atan(Math.exp((180 - py * 360) * (Math.PI / 180))) - 90;
  const clampLng = (l: number) => Math.max(-180, Math.min(180, l));
  const dx = width / 2 / scale;
  const dy = height / 2 / scale;
  return [
    clampLng((x - dx - 0.5) * 360),
    Math.max(-85, toLat(Math.min(1, y + dy))),
    clampLng((x + dx - 0.5) * 360),
    Math.min(85, toLat(Math.max(0, y - dy))),
  ]
    .map((n) => n.toFixed(5))
    .join(',');
}

interface Result {
  kind: string;
  seedMs: number;
  visible: number;
  versionCheck: { p50: number; p95: number };
  selectMs: number;
  buildMs: number;
  coldFirstRequestMs: number;
  coldFilteredMs: number;
  zooms: Record<number, { p50: number; p95: number; items: number }>;
  filtered: { p50: number; p95: number };
  /** Per zoom: a `q` never asked before on each request, and popular ones asked again. */
  text: Record<
    number,
    {
      fresh: { p50: number; p95: number };
      /** A never-seen q through the SQL path (the search's word index off). */
      freshBefore: { p50: number; p95: number };
      /** A never-seen q through the word index, its matches in an index built for them. */
      freshBuilt: { p50: number; p95: number };
      warm: { p50: number; p95: number };
    }
  >;
  rpsMap: number;
  rpsHealth: number;
  latencyMapP99: number;
  staleMs: number;
}

async function benchOne(kind: string, database: Database): Promise<Result> {
  const db = database.db;
  const [seeded, seedMs] = await timed(async () => {
    if (kind === 'pglite' && args.data && (await db.select({ n: count() }).from(services))[0]!.n) {
      console.error(`[${kind}] reusing the services in ${String(args.data)}`);
      return false;
    }
    console.error(`[${kind}] seeding ${SERVICES} services…`);
    await seedSynthetic(db, { services: SERVICES, vacancies: Number(args.vacancies), seed: 1 });
    return true;
  });
  if (kind === 'postgres') {
    const { sql } = await import('drizzle-orm');
    await db.execute(sql`analyze`);
  }

  // Database side of the cache: the version check (once a second) and the lean SELECT (per change).
  const checks: number[] = [];
  for (let i = 0; i < 30; i++) checks.push((await timed(() => readVersion(db)))[1]);
  checks.sort((a, b) => a - b);
  const [rows, selectMs] = await timed(() => readServices(db));
  const features = rows.map(toFeature);
  const [, buildMs] = await timed(() => new MapIndex(features));

  const { base, close } = await serveApp(database);
  try {
    const get = async (query: string) => {
      const url = `${base}/api/v1/map?${query}`;
      // Once more when a kept-alive connection the server closed (after a long pause, such as
      // the word index's build under load) was reused.
      const res = await fetch(url).catch(() => fetch(url));
      if (res.status !== 200) throw new Error(`map ${res.status}: ${await res.text()}`);
      return (await res.json()) as { clusters: unknown[]; points: unknown[] };
    };
    const [, coldFirstRequestMs] = await timed(() => get('bbox=-180,-85,180,85&zoom=2'));
    const [, coldFilteredMs] = await timed(() => get('bbox=-180,-85,180,85&zoom=2&country=DE'));

    const random = new Random(99);
    const centre = () => rows[random.int(0, rows.length - 1)]!;
    const zooms: Result['zooms'] = {};
    for (const zoom of ZOOMS) {
      const queries = Array.from({ length: REQUESTS }, () => {
        const c = centre();
        return `bbox=${viewport(c.lat, c.lng, zoom)}&zoom=${zoom}`;
      });
      for (const q of queries.slice(0, 20)) await get(q); // warm-up (JIT)
      const times: number[] = [];
      let items = 0;
      for (const q of queries) {
        const [body, t] = await timed(() => get(q));
        times.push(t);
        items += body.clusters.length + body.points.length;
      }
      times.sort((a, b) => a - b);
      zooms[zoom] = { p50: pct(times, 50), p95: pct(times, 95), items: items / queries.length };
    }

    // Filtered queries over a few warm combinations (country, category, online).
    const combos = [
      '&country=DE',
      '&category=food',
      '&online=false',
      '&country=PL&category=beauty_and_health',
    ];
    for (const f of combos) await get(`bbox=-180,-85,180,85&zoom=2${f}`);
    const filteredTimes: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const c = centre();
      const zoom = ZOOMS[i % ZOOMS.length]!;
      filteredTimes.push(
        (
          await timed(() =>
            get(`bbox=${viewport(c.lat, c.lng, zoom)}&zoom=${zoom}${combos[i % combos.length]}`),
          )
        )[1],
      );
    }
    filteredTimes.sort((a, b) => a - b);

    // Text queries: a q the map has never seen on every request (a prefix of a word of a random
    // visible service's name, sometimes with a second word of it), the viewport centred on that
    // service; then a few popular words asked again and again.
    const seen = new Set<string>();
    const freshQuery = () => {
      for (;;) {
        const c = centre();
        const words = c.name.split(/[^\p{L}]+/u).filter((w) => w.length >= 3);
        if (!words.length) continue;
        const word = random.pick(words);
        let q = word.slice(0, random.int(3, word.length)).toLowerCase();
        if (words.length > 1 && random.chance(0.5)) q = `${random.pick(words).toLowerCase()} ${q}`;
        if (seen.has(q)) continue;
        seen.add(q);
        return { c, q };
      }
    };
    const popular = ['перукарня', 'автосервіс', 'barbershop', 'ремонт', 'shop'];
    const text: Result['text'] = {};
    // The search's word index (the map's q takes its matches from it), built before.
    if (!(await buildWordIndex(db, 600_000))) throw new Error('the word index did not build');
    // The map of every service, whose clusters group the matches (MapIndex.among), built.
    await get('bbox=-180,-85,180,85&zoom=0');
    for (let i = 0; i < 20; i++) {
      const { c, q } = freshQuery(); // warm-up (JIT)
      await get(`bbox=${viewport(c.lat, c.lng, 8)}&zoom=8&q=${encodeURIComponent(q)}`);
    }
    for (const zoom of ZOOMS) {
      const fresh: number[] = [];
      const freshBefore: number[] = [];
      const freshBuilt: number[] = [];
      const warm: number[] = [];
      const ways = [
        { times: fresh, index: true, among: true },
        { times: freshBefore, index: false, among: true },
        { times: freshBuilt, index: true, among: false },
      ];
      for (let i = 0; i < REQUESTS; i++) {
        // Through the word index and the map's clusters; (another never-seen q) through SQL
        // alone; and through the index with an index built for the matches: in turn.
        for (let k = 0; k < ways.length; k++) {
          const way = ways[(i + k) % ways.length]!;
          const { c, q } = freshQuery();
          const box = `bbox=${viewport(c.lat, c.lng, zoom)}&zoom=${zoom}`;
          setWordIndex(way.index);
          setMatchesFromIndex(way.among);
          way.times.push((await timed(() => get(`${box}&q=${encodeURIComponent(q)}`)))[1]);
        }
        setWordIndex(true);
        setMatchesFromIndex(true);
        const { c } = freshQuery();
        const box = `bbox=${viewport(c.lat, c.lng, zoom)}&zoom=${zoom}`;
        const p = encodeURIComponent(popular[i % popular.length]!);
        warm.push((await timed(() => get(`${box}&q=${p}`)))[1]);
      }
      fresh.sort((a, b) => a - b);
      freshBefore.sort((a, b) => a - b);
      freshBuilt.sort((a, b) => a - b);
      warm.sort((a, b) => a - b);
      text[zoom] = {
        fresh: { p50: pct(fresh, 50), p95: pct(fresh, 95) },
        freshBefore: { p50: pct(freshBefore, 50), p95: pct(freshBefore, 95) },
        freshBuilt: { p50: pct(freshBuilt, 50), p95: pct(freshBuilt, 95) },
        warm: { p50: pct(warm, 50), p95: pct(warm, 95) },
      };
    }

    // Throughput at 50 connections: the map (zoom 8 viewports) and /healthz, same server.
    const mapRequests = Array.from({ length: 200 }, (_, i) => {
      const c = centre();
      const zoom = ZOOMS[i % ZOOMS.length]!;
      return {
        method: 'GET' as const,
        path: `/api/v1/map?bbox=${viewport(c.lat, c.lng, zoom)}&zoom=${zoom}`,
      };
    });
    console.error(`[${kind}] autocannon map…`);
    const mapRun = await cannon(DURATION, { url: base, requests: mapRequests });
    if (mapRun.non2xx) console.error(`[${kind}] map non-2xx: ${mapRun.non2xx}`);
    console.error(`[${kind}] autocannon /healthz…`);
    const healthRun = await cannon(DURATION, { url: `${base}/healthz` });

    // A write through another instance: this one's cache is not told, only the version changes.
    const world = 'bbox=-180,-85,180,85&zoom=0';
    const seenBefore = JSON.stringify(await get(world));
    await db
      .update(services)
      .set({ showOnMap: false, updatedAt: new Date() })
      .where(eq(services.id, rows[0]!.id));
    await bumpMapVersion(db);
    const [, staleMs] = await timed(async () => {
      const deadline = performance.now() + 30_000;
      while (JSON.stringify(await get(world)) === seenBefore && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    // Put back (a reused --data folder stays as seeded).
    await db.update(services).set({ showOnMap: true }).where(eq(services.id, rows[0]!.id));

    return {
      kind,
      seedMs: seeded ? seedMs : NaN,
      visible: rows.length,
      versionCheck: { p50: pct(checks, 50), p95: pct(checks, 95) },
      selectMs,
      buildMs,
      coldFirstRequestMs,
      coldFilteredMs,
      zooms,
      filtered: { p50: pct(filteredTimes, 50), p95: pct(filteredTimes, 95) },
      text,
      rpsMap: mapRun.requests.average,
      rpsHealth: healthRun.requests.average,
      latencyMapP99: mapRun.latency.p99,
      staleMs,
    };
  } finally {
    await close(); // closes the database too
  }
}

const results: Result[] = [];
{
  const database = await openDatabase({ dataDir: args.data ? String(args.data) : 'memory://' });
  results.push(await benchOne('pglite', database));
}
if (!args['no-pg']) results.push(await onPostgres(args.pg!, (db) => benchOne('postgres', db)));

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Run ${new Date().toISOString().slice(0, 10)} on ${cpu} (${os.cpus().length} cores), ` +
    `${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}; ` +
    `${SERVICES} synthetic services (seed 1), ${REQUESTS} requests per zoom, autocannon ${DURATION} s × 50 connections.\n`,
);
const cols = results.map((r) => r.kind);
const row = (label: string, f: (r: Result) => string) =>
  `| ${label} | ${results.map(f).join(' | ')} |`;
console.log(`| | ${cols.join(' | ')} |`);
console.log(`|---|${cols.map(() => '---').join('|')}|`);
console.log(row('visible services (approved, on map, placed)', (r) => String(r.visible)));
console.log(
  row('seeding', (r) => (Number.isNaN(r.seedMs) ? 'reused' : `${(r.seedMs / 1000).toFixed(1)} s`)),
);
console.log(
  row('version check p50 / p95', (r) => `${ms(r.versionCheck.p50)} / ${ms(r.versionCheck.p95)}`),
);
console.log(row('lean SELECT of visible services', (r) => ms(r.selectMs)));
console.log(row('supercluster build, all services', (r) => ms(r.buildMs)));
console.log(row('cold first request (SELECT + build)', (r) => ms(r.coldFirstRequestMs)));
console.log(row('cold first request, country filter', (r) => ms(r.coldFilteredMs)));
for (const z of ZOOMS) {
  console.log(
    row(
      `map zoom ${z} p50 / p95 (avg items)`,
      (r) =>
        `${ms(r.zooms[z]!.p50)} / **${ms(r.zooms[z]!.p95)}** (${r.zooms[z]!.items.toFixed(0)})`,
    ),
  );
}
console.log(
  row('map filtered, warm, p50 / p95', (r) => `${ms(r.filtered.p50)} / ${ms(r.filtered.p95)}`),
);
for (const z of ZOOMS) {
  console.log(
    row(
      `map with a q never seen, zoom ${z}, p50 / p95`,
      (r) => `${ms(r.text[z]!.fresh.p50)} / **${ms(r.text[z]!.fresh.p95)}**`,
    ),
  );
  console.log(
    row(
      `· before (SQL path, the word index off), zoom ${z}`,
      (r) => `${ms(r.text[z]!.freshBefore.p50)} / ${ms(r.text[z]!.freshBefore.p95)}`,
    ),
  );
  console.log(
    row(
      `· before (word index, a supercluster built for the matches), zoom ${z}`,
      (r) => `${ms(r.text[z]!.freshBuilt.p50)} / ${ms(r.text[z]!.freshBuilt.p95)}`,
    ),
  );
}
for (const z of ZOOMS) {
  console.log(
    row(
      `map with a popular q, zoom ${z}, p50 / p95`,
      (r) => `${ms(r.text[z]!.warm.p50)} / ${ms(r.text[z]!.warm.p95)}`,
    ),
  );
}
console.log(
  row(
    'map req/s at 50 connections (p99 latency)',
    (r) => `${r.rpsMap.toFixed(0)} (${r.latencyMapP99} ms)`,
  ),
);
console.log(row('/healthz req/s at 50 connections (ceiling)', (r) => r.rpsHealth.toFixed(0)));
console.log(row('map / ceiling', (r) => `${((100 * r.rpsMap) / r.rpsHealth).toFixed(0)} %`));
console.log(
  row('write through another instance on the map after (target < 3 s)', (r) => ms(r.staleMs)),
);
console.log('\n' + JSON.stringify(results));
process.exit(0);
