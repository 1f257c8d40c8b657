/**
 * Snapshot benchmark: how long an online snapshot of the embedded database keeps requests
 * waiting, at 100k synthetic services (docs/performance.md § Snapshots).
 *
 *   pnpm --filter @poruch/server bench backup [--quick] [--services 100000]
 *
 * The server (buildApp on a port) runs on a PGlite folder with the synthetic catalogue. A probe
 * sends one database read after the other (`GET /api/v1/services`, a page of the list) and
 * records each answer's time, while the event loop's delay is sampled at 1 ms. After a warm-up
 * and 1,000 services renamed (dirty pages for the checkpoint), three phases, in one run: idle
 * (the baseline), an online snapshot (db/snapshots.ts: pg_backup_start, the copy,
 * pg_backup_stop, then the verification in a worker thread), and for comparison PGlite's own
 * `dumpDataDir('gzip')`, which holds the database for the whole dump. Reported per phase: the
 * probe's p50 / p99 / longest answer, the longest event-loop delay, and the phase's duration;
 * for the snapshot also the longest time it held PGlite (the pause) and the file's size.
 * PGlite only: on PostgreSQL the server takes no snapshots.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dumpOnline, verifySnapshot } from '../src/db/snapshots.js';
import { benchArgs, pct, serveApp, syntheticDatabase } from './common.js';

const args = benchArgs({ services: { type: 'string' } });
const SERVICES = Number(args.services ?? (args.quick ? 10_000 : 100_000));
const IDLE_MS = args.quick ? 2000 : 5000;

console.error(`seeding ${SERVICES} synthetic services on PGlite…`);
const seeded = await syntheticDatabase(SERVICES, 'poruch-bench-backup');
const database = await seeded.open();
const server = await serveApp(database);
const embedded = database.embedded!;

interface Phase {
  name: string;
  ms: number;
  answers: number[];
  loopMaxMs: number;
  note?: string;
}

/** Runs `work` while the probe reads and the event loop is watched. */
async function phase(name: string, work: () => Promise<string | undefined>): Promise<Phase> {
  const answers: number[] = [];
  let stop = false;
  const probe = (async () => {
    let page = 1;
    while (!stop) {
      const t = performance.now();
      const res = await fetch(
        `${server.base}/api/v1/services?pageSize=20&page=${(page++ % 50) + 1}`,
      );
      await res.arrayBuffer();
      answers.push(performance.now() - t);
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const started = performance.now();
  const note = await work();
  const ms = performance.now() - started;
  loop.disable();
  stop = true;
  await probe;
  return { name, ms, answers: answers.sort((a, b) => a - b), loopMaxMs: loop.max / 1e6, note };
}

const out = path.join(seeded.dataDir, 'backups');
await fs.mkdir(out, { recursive: true });
const phases: Phase[] = [];
// Warm-up (JIT, the list's plan), not reported; then writes, so the snapshot's checkpoint has
// dirty pages to write as on a site in use: 1,000 services renamed.
await phase('warm-up', () => new Promise((r) => setTimeout(() => r(undefined), IDLE_MS)));
await embedded.client.query(
  `UPDATE services SET name = name || ' ' WHERE id IN (SELECT id FROM services LIMIT 1000)`,
);
phases.push(await phase('idle', () => new Promise((r) => setTimeout(() => r(undefined), IDLE_MS))));
let verifyMs = 0;
phases.push(
  await phase('online snapshot: dump', async () => {
    const { bytes, pauseMs } = await dumpOnline(
      embedded.client,
      embedded.dbDir,
      path.join(out, 'online.pglite.tar.gz'),
    );
    return `held PGlite at most ${pauseMs.toFixed(1)} ms; ${(bytes / 1e6).toFixed(1)} MB`;
  }),
);
phases.push(
  await phase('online snapshot: verification (worker)', async () => {
    const t = performance.now();
    const counts = await verifySnapshot(path.join(out, 'online.pglite.tar.gz'));
    verifyMs = performance.now() - t;
    return `${counts.services} services counted`;
  }),
);
phases.push(
  await phase("PGlite's dumpDataDir('gzip'), for comparison", async () => {
    const dump = await embedded.client.dumpDataDir('gzip');
    return `${(dump.size / 1e6).toFixed(1)} MB`;
  }),
);

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`\n${SERVICES} synthetic services on PGlite; one probe read after another.\n`);
console.log(
  '| phase | duration | probe answers | p50 | p99 | longest | event loop, longest delay | note |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const p of phases) {
  const a = p.answers;
  console.log(
    `| ${p.name} | ${(p.ms / 1000).toFixed(1)} s | ${a.length} | ${ms(pct(a, 50))} | ` +
      `${ms(pct(a, 99))} | ${ms(a[a.length - 1] ?? 0)} | ${ms(p.loopMaxMs)} | ${p.note ?? ''} |`,
  );
}
console.log(`\nverification: ${(verifyMs / 1000).toFixed(1)} s`);

await server.close();
await seeded.remove();
