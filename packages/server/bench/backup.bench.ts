/**
 * Snapshot benchmark: how long an online snapshot of the embedded database, and the checkpoints
 * that keep it short, keep requests waiting, at 100k synthetic services (docs/performance.md
 * § Snapshots).
 *
 *   pnpm --filter @poruch/server bench backup [--quick] [--services 100000] [--data <dir>]
 *     [--no-compare]
 *
 * The server (buildApp on a port, with its checkpointer and its snapshot helper) runs in this
 * process on a PGlite folder with the synthetic catalogue. In every phase two streams run: a probe
 * sends a read every 20 ms on a fixed schedule (open loop: a profile, `GET /api/v1/services/:id`,
 * then `/healthz`, in turn), each timed from when it was due, so a held event loop shows in full;
 * and a writer renames one service every 200 ms (SQL on the same PGlite; a rename rewrites its
 * search columns and indexes, ~100 KB of WAL). The event loop's delay is sampled at 1 ms. After a
 * warm-up, in one run: the streams alone (the baseline: the checkpointer's own pauses), the
 * online snapshot's copy (db/snapshots.ts: the server's three calls, the helper's copy and gzip)
 * and its verification (a process the helper starts); then, for comparison, unless
 * `--no-compare`: starting one process from the server (what each snapshot did before the
 * helper), the checkpointer off for a phase then `pg_backup_start` … `pg_backup_stop` (its
 * checkpoint writes every page changed since the last one), and PGlite's own
 * `dumpDataDir('gzip')`, which holds the database for the whole dump. Reported per phase: the
 * probe's p50 / p99 / longest, the writes' longest, the longest event-loop delay, the
 * checkpointer's checkpoints (how many, mean, longest, and where the longest one's time went), the
 * server's garbage collections, the WAL since the last checkpoint at the end, and the longest hold
 * of PGlite by the snapshot. PGlite only: on PostgreSQL the server takes no snapshots.
 *
 * `--data <dir>`: the catalogue is seeded once into `<dir>/synthetic-<n>` and copied for each run
 * (seeding 100k takes about 10 minutes).
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { walSinceCheckpoint } from '../src/db/checkpoints.js';
import { dumpOnline, verifySnapshot } from '../src/db/snapshots.js';
import { benchArgs, pct, serveApp, syntheticDatabase } from './common.js';

const args = benchArgs({
  services: { type: 'string' },
  data: { type: 'string' },
  // Leave out the phases for comparison (the methods before).
  'no-compare': { type: 'boolean' },
});
const SERVICES = Number(args.services ?? (args.quick ? 10_000 : 100_000));
const PHASE_MS = args.quick ? 3000 : 8000;
const WRITE_EVERY_MS = 200;
const PROBE_EVERY_MS = 20;

console.error(`seeding ${SERVICES} synthetic services on PGlite…`);
const seeded = await syntheticDatabase(SERVICES, 'poruch-bench-backup', undefined, {
  reuse: args.data ? String(args.data) : undefined,
});
const database = await seeded.open();
// No snapshot of its own on the schedule: the bench takes them.
const server = await serveApp(database, { BACKUP_INTERVAL_MINUTES: '0' });
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
  /** The longest gap between two 1-ms ticks, split by the thread's counters. */
  gap: Held | null;
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

/** Runs `work` while the probe reads, the writer writes and the event loop is watched. */
async function phase(
  name: string,
  work: () => Promise<string | undefined>,
  { streams = true } = {},
): Promise<Phase> {
  const reads: number[] = [];
  const writes: number[] = [];
  let stop = !streams;
  // Every phase renames the same services in the same order: a rename's cost depends on the
  // service (its vacancies' search columns are rewritten with it).
  let renamed = 0;
  const probe = (async () => {
    const sent: Promise<void>[] = [];
    let next = performance.now();
    let n = 0;
    while (!stop) {
      const due = next;
      const url =
        n++ % 2
          ? `${server.base}/healthz`
          : `${server.base}/api/v1/services/${ids[n % ids.length]}`;
      sent.push(
        fetch(url)
          .then((res) => res.arrayBuffer())
          .then(() => {
            reads.push(performance.now() - due);
          }),
      );
      next += PROBE_EVERY_MS;
      await sleep(Math.max(0, next - performance.now()));
    }
    await Promise.all(sent);
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
  // The longest gap between two ticks of a 1-ms timer, and where the thread's time went meanwhile.
  let gap: Held | null = null;
  let lastTick = performance.now();
  let lastCounters = threadCounters();
  const ticker = setInterval(() => {
    const now = performance.now();
    const counters = threadCounters();
    if (!gap || now - lastTick > gap.ms) {
      gap = {
        ms: now - lastTick,
        runMs: counters.run - lastCounters.run,
        queueMs: counters.queue - lastCounters.queue,
        minflt: counters.minflt - lastCounters.minflt,
        majflt: counters.majflt - lastCounters.majflt,
      };
    }
    lastTick = now;
    lastCounters = counters;
  }, 1);
  const started = performance.now();
  const note = await work();
  const ms = performance.now() - started;
  loop.disable();
  clearInterval(ticker);
  stop = true;
  await Promise.all([probe, writer]);
  return {
    name,
    ms,
    reads: reads.sort((a, b) => a - b),
    writes: writes.sort((a, b) => a - b),
    loopMaxMs: loop.max / 1e6,
    gap,
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
  // What the snapshot's three calls hold PGlite for on their own: with the streams running, a
  // call may also wait in PGlite's queue behind a rename.
  await phase(
    'online snapshot: copy, no probe and no writer',
    async () => {
      const { bytes, pauseMs } = await dumpOnline(client, database.embedded!.dbDir, file);
      return `snapshot held PGlite ${ms(pauseMs)}; ${(bytes / 1e6).toFixed(1)} MB`;
    },
    { streams: false },
  ),
);
phases.push(
  await phase('online snapshot: copy', async () => {
    const { bytes, pauseMs } = await dumpOnline(client, database.embedded!.dbDir, file);
    return `snapshot held PGlite ${ms(pauseMs)}; ${(bytes / 1e6).toFixed(1)} MB`;
  }),
);
let verifyMs = 0;
phases.push(
  await phase('online snapshot: verification (a process the helper starts)', async () => {
    const t = performance.now();
    const counts = await verifySnapshot(file, { dataDir: seeded.dataDir });
    verifyMs = performance.now() - t;
    return `${counts.services} services counted in ${(verifyMs / 1000).toFixed(1)} s`;
  }),
);
const compare = !args['no-compare'];
if (compare) {
  phases.push(
    await phase('for comparison: the server starts one process', async () => {
      const t = performance.now();
      const child = spawn('/bin/true');
      const held = performance.now() - t;
      await new Promise((r) => child.once('exit', r));
      const rss = process.memoryUsage().rss / 1e6;
      await sleep(1000);
      return `spawn held the thread ${ms(held)} at ${rss.toFixed(0)} MB RSS`;
    }),
  );
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
}

console.log(
  `\n${SERVICES} synthetic services on PGlite; a probe read due every ${PROBE_EVERY_MS} ms ` +
    `(a profile, then /healthz), timed from when it was due; a rename every ${WRITE_EVERY_MS} ms.\n`,
);
console.log(
  '| phase | duration | probe reads | p50 | p99 | longest | writes, longest | event loop, longest delay | longest gap of a 1-ms timer: on a core, waiting for one, page faults | checkpoints: n, mean, longest | longest checkpoint: on a core, waiting for one, page faults | server GC: longest, total | WAL since checkpoint | note |',
);
console.log(
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
);
const held = (h: Held | null) =>
  h ? `${ms(h.ms)}: ${ms(h.runMs)}, ${ms(h.queueMs)}, ${h.minflt} minor / ${h.majflt} major` : '';
for (const p of phases) {
  const r = p.reads;
  console.log(
    `| ${p.name} | ${(p.ms / 1000).toFixed(1)} s | ${r.length} | ` +
      (r.length
        ? `${ms(pct(r, 50))} | ${ms(pct(r, 99))} | ${ms(r[r.length - 1]!)} | `
        : '— | — | — | ') +
      `${p.writes.length ? ms(p.writes[p.writes.length - 1]!) : '—'} | ` +
      `${ms(p.loopMaxMs)} | ${held(p.gap)} | ${p.checkpoints ? `${p.checkpoints}, ${ms(p.checkpointMeanMs)}, ${ms(p.checkpointMs)}` : 'none'} | ` +
      `${held(p.held)} | ` +
      `${ms(p.gcMaxMs)}, ${ms(p.gcTotalMs)} | ` +
      `${p.walKB.toFixed(0)} KB | ${p.note ?? ''} |`,
  );
}

await server.close();
await seeded.remove();
