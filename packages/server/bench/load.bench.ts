/**
 * Load (issue 8, docs/performance.md#load): the real server process over 10k synthetic services,
 * driven by autocannon at a fixed overall rate with the mixed load of bench/loadScenario.ts
 * (95 % public reads: search, profile, map, vacancies; 5 % writes: reports, used marks, partner
 * edits with session and CSRF token). Finds the highest rate at which p99 ≤ 100 ms with zero
 * errors: doubling probes, then bisection, then a confirmation run of the full duration (stepped
 * down by 10 % until it passes). Afterwards every acknowledged write of every run must be in the
 * database. PGlite, then PostgreSQL unless `--no-pg`.
 *
 *   flock /tmp/bench.lock nice -n -10 pnpm --filter @poruch/server exec tsx bench/load.bench.ts \
 *     [--services 10000] [--duration 60] [--probe 20] [--start 50] [--connections 50] [--no-pg]
 *     [--quick]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startServerProcess, syntheticDatabase } from './common.js';
import {
  emptyAcknowledged,
  mergeAcknowledged,
  prepareWorld,
  runLoad,
  verifyAcknowledged,
  type LoadRun,
} from './loadScenario.js';

const { values: args } = parseArgs({
  options: {
    services: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '60' },
    probe: { type: 'string', default: '20' },
    start: { type: 'string', default: '50' },
    connections: { type: 'string', default: '50' },
    'no-pg': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
  strict: false,
});
const SERVICES = args.quick ? 2000 : Number(args.services);
const DURATION = args.quick ? 10 : Number(args.duration);
const PROBE = args.quick ? 5 : Number(args.probe);
const START = Number(args.start);
const CONNECTIONS = Number(args.connections);
const P99_MAX = 100;

const ok = (run: LoadRun) => run.errors === 0 && run.result.latency.p99 <= P99_MAX;

const line = (kind: string, phase: string, run: LoadRun) =>
  `| ${kind} | ${phase} | ${run.rate} | ${Math.round(run.result.requests.average)} | ${run.result.latency.p50} / ${run.result.latency.p99} ms | ${run.errors}${
    Object.keys(run.statuses).length ? ` ${JSON.stringify(run.statuses)}` : ''
  } | ${run.writes} | ${ok(run) ? 'pass' : 'fail'} |`;

/** Probes, bisection and the confirmation run; returns the confirmed rate and all acks. */
async function search(kind: string, base: string) {
  const world = await prepareWorld(base, 10);
  const acknowledged = emptyAcknowledged();
  let acknowledgedCount = 0;
  const run = async (rate: number, duration: number, phase: string) => {
    const r = await runLoad(world, { rate, duration, connections: CONNECTIONS });
    mergeAcknowledged(acknowledged, r.acknowledged);
    const a = r.acknowledged;
    acknowledgedCount +=
      a.reports.length + a.usedMarks.length + a.vacancies.length + r.editsAcknowledged;
    console.log(line(kind, phase, r));
    console.log(
      `|  | by kind (p50 / p99 ms, count): ${Object.entries(r.byKind)
        .map(([k, v]) => `${k} ${v.p50} / ${v.p99} (${v.count})`)
        .join(', ')} | | | | | | |`,
    );
    return r;
  };
  // Warm-up: fills the map indexes and the search cache, as a running instance has them.
  await run(START, Math.max(3, Math.round(PROBE / 4)), 'warm-up');
  // Doubling probes up to the first failure (or halving down to the first pass), then
  // bisection between the last pass and the first failure.
  let lo = 0;
  let hi = START;
  if (ok(await run(START, PROBE, 'probe'))) {
    lo = START;
    hi = START * 2;
    while (ok(await run(hi, PROBE, 'probe'))) {
      lo = hi;
      hi *= 2;
    }
  } else {
    while (hi > 1) {
      const rate = Math.floor(hi / 2);
      if (ok(await run(rate, PROBE, 'probe'))) {
        lo = rate;
        break;
      }
      hi = rate;
    }
  }
  while (hi - lo > Math.max(2, lo * 0.1)) {
    const mid = Math.round((lo + hi) / 2);
    if (ok(await run(mid, PROBE, 'bisect'))) lo = mid;
    else hi = mid;
  }
  let confirmed: LoadRun | null = null;
  for (let rate = lo, i = 0; rate > 0 && i < 4; rate = Math.floor(rate * 0.9), i++) {
    const r = await run(rate, DURATION, `${DURATION} s`);
    if (ok(r)) {
      confirmed = r;
      break;
    }
  }
  return { confirmed, acknowledged, acknowledgedCount };
}

const summary: string[] = [];
let failed = false;

console.log(
  `load: ${SERVICES} services, probes ${PROBE} s, confirmation ${DURATION} s, ${CONNECTIONS} connections, p99 ≤ ${P99_MAX} ms, ${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${os.cpus().length} cores\n`,
);
console.log('| database | phase | rate req/s | achieved req/s | p50 / p99 | errors | writes | |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');

async function report(kind: string, result: Awaited<ReturnType<typeof search>>, missing: string[]) {
  if (missing.length) failed = true;
  if (!result.confirmed) failed = true;
  summary.push(
    `| ${kind} | ${result.confirmed?.rate ?? 'none'} | ${
      result.confirmed
        ? `${result.confirmed.result.latency.p50} / ${result.confirmed.result.latency.p99} ms`
        : '—'
    } | ${result.acknowledgedCount} | ${missing.length} |`,
  );
  if (missing.length) console.error(`${kind}: missing writes: ${missing.slice(0, 10).join(', ')}`);
}

/**
 * The server as in production behind a proxy: each simulated visitor has its own address (see
 * loadScenario.ts), and the partners of the scenario sign up from one.
 */
const startServer = (env: Record<string, string>) =>
  startServerProcess({ TRUST_PROXY: 'true', RATE_SIGNUP_PER_IP: '1000', ...env });

// PGlite (seeded into a folder and closed, then the server process opens it), then PostgreSQL;
// every acknowledged write is checked in the database after the server stops.
for (const kind of args['no-pg'] ? ['PGlite'] : ['PGlite', 'PostgreSQL']) {
  const data = await syntheticDatabase(
    SERVICES,
    'poruch-load',
    kind === 'PostgreSQL'
      ? (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres')
      : undefined,
  );
  const server = await startServer(data.env);
  const result = await search(kind, server.base);
  await server.stop();
  const check = await data.open();
  const missing = await verifyAcknowledged(check.db, result.acknowledged);
  await check.close();
  await report(kind, result, missing);
  await data.remove();
}

console.log(
  `\n| database | highest rate with p99 ≤ ${P99_MAX} ms, 0 errors (${DURATION} s) | p50 / p99 | acknowledged writes | missing |`,
);
console.log('| --- | --- | --- | --- | --- |');
for (const s of summary) console.log(s);
console.log(
  `\nload average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exitCode = failed ? 1 : 0;
