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
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/index.js';
import { settings } from '../src/db/schema.js';
import { DEMO_SEED_KEY } from '../src/seed.js';
import { seedSynthetic } from '../src/seed/synthetic.js';
import { postgresDatabase } from './common.js';
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
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** The server as in production (info logs to a pipe that is read and dropped). */
async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      MAIL_WORKER: 'false',
      LOG_LEVEL: 'info',
      TILE_URL: 'none',
      // Behind a proxy: each simulated visitor has its own address (see loadScenario.ts).
      TRUST_PROXY: 'true',
      RATE_SIGNUP_PER_IP: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  proc.stdout!.resume();
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

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

// PGlite: seed into a folder, close, then the server process opens it; verify after it stops.
{
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-load-'));
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await seedSynthetic(database.db, { services: SERVICES, seed: 1 });
  await database.db
    .insert(settings)
    .values({ key: DEMO_SEED_KEY, value: 'synthetic' })
    .onConflictDoNothing();
  await database.close();
  const server = await startServer({ DATA_DIR: dataDir });
  const result = await search('PGlite', server.base);
  await server.stop();
  const check = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  const missing = await verifyAcknowledged(check.db, result.acknowledged);
  await check.close();
  await report('PGlite', result, missing);
  await fs.rm(dataDir, { recursive: true, force: true });
}

if (!args['no-pg']) {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const pg = await postgresDatabase(serverUrl);
  await seedSynthetic(pg.database.db, { services: SERVICES, seed: 1 });
  await pg.database.db
    .insert(settings)
    .values({ key: DEMO_SEED_KEY, value: 'synthetic' })
    .onConflictDoNothing();
  const url = (pg.database.db as unknown as { $client: { options: { connectionString: string } } })
    .$client.options.connectionString;
  await pg.database.close();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-load-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: url });
  const result = await search('PostgreSQL', server.base);
  await server.stop();
  const check = await openDatabase({ url, dataDir: '' });
  const missing = await verifyAcknowledged(check.db, result.acknowledged);
  await check.close();
  await report('PostgreSQL', result, missing);
  await fs.rm(dataDir, { recursive: true, force: true });
  await pg.drop();
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
