/**
 * Snapshot benchmark: how long an online snapshot of the embedded database, and the checkpoints
 * that keep it short, keep requests waiting, at 100k synthetic services (docs/performance.md
 * § Snapshots).
 *
 *   pnpm --filter @poruch/server bench backup [--quick] [--services 100000]
 *
 * The server (buildApp on a port, with its checkpointer) runs on a PGlite folder with the
 * synthetic catalogue. In every phase two streams run: a probe sends one database read after
 * the other (`GET /api/v1/services`, a page of the list) and a writer renames one service every
 * 200 ms (SQL on the same PGlite; a rename rewrites its search columns and indexes, ~100 KB of
 * WAL); the event loop's delay is sampled at 1 ms. After a warm-up, in one run: the streams alone
 * (the baseline: the checkpointer's own pauses), the online snapshot's copy (db/snapshots.ts)
 * and its verification in a worker thread, the previous method for comparison (the checkpointer
 * off for a phase, then `pg_backup_start` … `pg_backup_stop`, whose checkpoint writes every page
 * changed since the last one), and PGlite's own `dumpDataDir('gzip')`, which holds the database
 * for the whole dump. Reported per phase: the reads' p50 / p99 / longest, the writes' longest,
 * the longest event-loop delay, the longest checkpoint of the checkpointer, the WAL since the
 * last checkpoint at the end, and the longest hold of PGlite by the snapshot (or the backup
 * calls). PGlite only: on PostgreSQL the server takes no snapshots.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { walSinceCheckpoint } from '../src/db/checkpoints.js';
import { dumpOnline, verifySnapshot } from '../src/db/snapshots.js';
import { benchArgs, pct, serveApp, syntheticDatabase } from './common.js';

const args = benchArgs({
  services: { type: 'string' },
  // Leave out the verification in a worker thread (the method before, for comparison).
  'no-worker': { type: 'boolean' },
});
const SERVICES = Number(args.services ?? (args.quick ? 10_000 : 100_000));
const PHASE_MS = args.quick ? 3000 : 8000;
const WRITE_EVERY_MS = 200;

console.error(`seeding ${SERVICES} synthetic services on PGlite…`);
const seeded = await syntheticDatabase(SERVICES, 'poruch-bench-backup');
const database = await seeded.open();
const server = await serveApp(database);
const client = database.embedded!.client;
const checkpoints = server.app.checkpoints!;
/**
 * Where the longest checkpoint's time went, from the kernel's counters of the server's thread
 * (the one PGlite runs on): on a core, waiting for one, or neither (asleep: I/O, a lock, a page
 * fault's wait); and its page faults.
 */
interface Held {
  ms: number;
  runMs: number;
  queueMs: number;
  minflt: number;
  majflt: number;
}
const threadCounters = () => {
  try {
    const [run, queue] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { run: run! / 1e6, queue: queue! / 1e6, minflt: Number(f[7]), majflt: Number(f[9]) };
  } catch {
    return { run: 0, queue: 0, minflt: 0, majflt: 0 };
  }
};
let longestHeld: Held | null = null;
const query = client.query.bind(client);
client.query = (async (...a: Parameters<typeof client.query>) => {
  if (a[0] !== 'CHECKPOINT') return query(...a);
  const t = performance.now();
  const before = threadCounters();
  try {
    return await query(...a);
  } finally {
    const after = threadCounters();
    const ms = performance.now() - t;
    if (!longestHeld || ms > longestHeld.ms) {
      longestHeld = {
        ms,
        runMs: after.run - before.run,
        queueMs: after.queue - before.queue,
        minflt: after.minflt - before.minflt,
        majflt: after.majflt - before.majflt,
      };
    }
  }
}) as typeof client.query;
/** The main isolate's garbage collections (the server's), per phase: longest and total. */
let gcMax = 0;
let gcTotal = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMax = Math.max(gcMax, e.duration);
    gcTotal += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

const ids = (
  await client.query<{ id: string }>('SELECT id FROM services ORDER BY id LIMIT 5000')
).rows.map((r) => r.id);

interface Phase {
  name: string;
  ms: number;
  reads: number[];
  writes: number[];
  loopMaxMs: number;
  checkpointMs: number;
  checkpointMeanMs: number;
  checkpoints: number;
  walKB: number;
  held: Held | null;
  gcMaxMs: number;
  gcTotalMs: number;
  note?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let renamed = 0;

/** Runs `work` while the probe reads, the writer writes and the event loop is watched. */
async function phase(name: string, work: () => Promise<string | undefined>): Promise<Phase> {
  const reads: number[] = [];
  const writes: number[] = [];
  let stop = false;
  const probe = (async () => {
    let page = 1;
    while (!stop) {
      const t = performance.now();
      const res = await fetch(
        `${server.base}/api/v1/services?pageSize=20&page=${(page++ % 50) + 1}`,
      );
      await res.arrayBuffer();
      reads.push(performance.now() - t);
    }
  })();
  const writer = (async () => {
    let next = performance.now();
    while (!stop) {
      const t = performance.now();
      await client.query(`UPDATE services SET name = name || '.' WHERE id = $1`, [
        ids[renamed++ % ids.length],
      ]);
      writes.push(performance.now() - t);
      next += WRITE_EVERY_MS;
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  checkpoints.longestMs = 0;
  longestHeld = null;
  gcMax = 0;
  gcTotal = 0;
  const taken = checkpoints.count;
  const spent = checkpoints.totalMs;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const started = performance.now();
  const note = await work();
  const ms = performance.now() - started;
  loop.disable();
  stop = true;
  await Promise.all([probe, writer]);
  return {
    name,
    ms,
    reads: reads.sort((a, b) => a - b),
    writes: writes.sort((a, b) => a - b),
    loopMaxMs: loop.max / 1e6,
    checkpointMs: checkpoints.longestMs,
    checkpointMeanMs: (checkpoints.totalMs - spent) / Math.max(1, checkpoints.count - taken),
    checkpoints: checkpoints.count - taken,
    walKB: (await walSinceCheckpoint(client)) / 1024,
    held: longestHeld,
    gcMaxMs: gcMax,
    gcTotalMs: gcTotal,
    note,
  };
}

const out = path.join(seeded.dataDir, 'backups');
await fs.mkdir(out, { recursive: true });
const file = path.join(out, 'online.pglite.tar.gz');
const phases: Phase[] = [];
const ms = (n: number) => `${n.toFixed(1)} ms`;
const wait = () => sleep(PHASE_MS).then(() => undefined);

await phase('warm-up', wait); // JIT, the list's plan; not reported
phases.push(await phase('reads and writes (checkpointer on)', wait));
phases.push(
  await phase('online snapshot: copy', async () => {
    const { bytes, pauseMs } = await dumpOnline(client, database.embedded!.dbDir, file);
    return `snapshot held PGlite ${ms(pauseMs)}; ${(bytes / 1e6).toFixed(1)} MB`;
  }),
);
/**
 * The verification as it was before, for comparison: a worker thread of this process unpacks the
 * whole snapshot into an in-memory PGlite (its thread at nice 10) and counts the services.
 */
async function verifyInWorker(file: string): Promise<number> {
  const require = createRequire(import.meta.url);
  const pglite = pathToFileURL(require.resolve('@electric-sql/pglite')).href.replace(
    /index\.cjs$/,
    'index.js',
  );
  const contrib = (name: string) =>
    pathToFileURL(require.resolve(`@electric-sql/pglite/contrib/${name}`)).href.replace(
      /\.cjs$/,
      '.js',
    );
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const fs = require('node:fs/promises');
    try { require('node:os').setPriority(10); } catch {}
    (async () => {
      const { PGlite } = await import(${JSON.stringify(pglite)});
      const { pg_trgm } = await import(${JSON.stringify(contrib('pg_trgm'))});
      const { unaccent } = await import(${JSON.stringify(contrib('unaccent'))});
      const db = await PGlite.create({ extensions: { pg_trgm, unaccent },
        loadDataDir: new Blob([await fs.readFile(workerData.file)]) });
      const { rows } = await db.query('SELECT count(*)::int AS n FROM services');
      await db.close();
      parentPort.postMessage(rows[0].n);
    })().catch((e) => parentPort.postMessage(String(e)));`;
  const worker = new Worker(code, { eval: true, workerData: { file } });
  const n = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  if (typeof n !== 'number') throw new Error(String(n));
  return n;
}

let verifyMs = 0;
phases.push(
  await phase('online snapshot: verification (child process)', async () => {
    const t = performance.now();
    const counts = await verifySnapshot(file, { dataDir: seeded.dataDir });
    verifyMs = performance.now() - t;
    return `${counts.services} services counted in ${(verifyMs / 1000).toFixed(1)} s`;
  }),
);
if (!args['no-worker']) {
  phases.push(
    await phase('before, for comparison: verification in a worker thread', async () => {
      const t = performance.now();
      const n = await verifyInWorker(file);
      return `${n} services counted in ${((performance.now() - t) / 1000).toFixed(1)} s`;
    }),
  );
}
phases.push(
  await phase(
    'before, for comparison: no checkpointer, then pg_backup_start … pg_backup_stop',
    async () => {
      await checkpoints.stop();
      try {
        await wait();
        const hold = async (query: string) => {
          const t = performance.now();
          await client.query(query);
          return performance.now() - t;
        };
        const start = await hold(`SELECT pg_backup_start('bench', true)`);
        await sleep(1000);
        const stop = await hold('SELECT pg_backup_stop(false)');
        return `pg_backup_start held PGlite ${ms(start)}, pg_backup_stop ${ms(stop)}`;
      } finally {
        checkpoints.start();
      }
    },
  ),
);
phases.push(
  await phase("PGlite's dumpDataDir('gzip'), for comparison", async () => {
    const dump = await client.dumpDataDir('gzip');
    return `${(dump.size / 1e6).toFixed(1)} MB`;
  }),
);

console.log(
  `\n${SERVICES} synthetic services on PGlite; one probe read after another, a rename every ` +
    `${WRITE_EVERY_MS} ms.\n`,
);
console.log(
  '| phase | duration | reads | p50 | p99 | longest | writes, longest | event loop, longest delay | checkpoints: n, mean, longest | longest checkpoint: on a core, waiting for one, page faults | server GC: longest, total | WAL since checkpoint | note |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const p of phases) {
  const r = p.reads;
  console.log(
    `| ${p.name} | ${(p.ms / 1000).toFixed(1)} s | ${r.length} | ${ms(pct(r, 50))} | ` +
      `${ms(pct(r, 99))} | ${ms(r[r.length - 1] ?? 0)} | ${ms(p.writes[p.writes.length - 1] ?? 0)} | ` +
      `${ms(p.loopMaxMs)} | ${p.checkpoints ? `${p.checkpoints}, ${ms(p.checkpointMeanMs)}, ${ms(p.checkpointMs)}` : 'none'} | ` +
      `${p.held ? `${ms(p.held.runMs)}, ${ms(p.held.queueMs)}, ${p.held.minflt} minor / ${p.held.majflt} major` : ''} | ` +
      `${ms(p.gcMaxMs)}, ${ms(p.gcTotalMs)} | ` +
      `${p.walKB.toFixed(0)} KB | ${p.note ?? ''} |`,
  );
}

await server.close();
await seeded.remove();
