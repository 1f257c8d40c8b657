/**
 * Open-data benchmark: the CSV and GeoJSON exports of 100k synthetic services on PGlite and on
 * PostgreSQL, in one run.
 *
 *   pnpm --filter @poruch/server bench openData [--services 100000] [--quick] [--pg postgres://…]
 *     [--no-pg]
 *
 * Per database and format, over HTTP with curl (another process), without compression (a
 * script's download) and with gzip: the time to the first body byte and to the last, after a write to
 * an exported field of a visible service (a new catalogue version, so a new ETag) and once more
 * without one; the growth of this process's resident memory (server and client) while the file
 * streams, sampled every 5 ms; the version's query alone; and a revalidation (If-None-Match, 304). Targets at 100k: first
 * byte ≤ 200 ms, whole file ≤ 5 s, memory growth ≤ 50 MB. Prints a Markdown table for
 * docs/performance.md.
 */
import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/index.js';
import { openDatabase } from '../src/db/index.js';
import { openDataVersion } from '../src/openData/services.js';
import { seedSynthetic } from '../src/seed/synthetic.js';
import { benchArgs, onPostgres, serveApp } from './common.js';

const args = benchArgs({ services: { type: 'string' } });
const SERVICES = Number(args.services ?? (args.quick ? 10_000 : 100_000));
const FORMATS = ['csv', 'geojson'] as const;

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

interface Download {
  status: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  /** Highest resident memory seen during the download, above the level before it. */
  rssGrowth: number;
  /** The same for V8's heap in use (live objects and garbage not yet collected). */
  heapGrowth: number;
  /** The same for memory outside V8's heap (Buffers). */
  externalGrowth: number;
  etag: string;
}

/**
 * One GET by curl (another process, so the client does not share this process's event loop with
 * the server), the body dropped; this process's resident memory sampled meanwhile.
 */
function download(url: string, headers: Record<string, string> = {}): Promise<Download> {
  return new Promise((resolve, reject) => {
    global.gc?.();
    const before = process.memoryUsage();
    const peak = { ...before };
    const sample = () => {
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
      peak.external = Math.max(peak.external, now.external);
    };
    const sampler = setInterval(sample, 5);
    const curl = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-D',
      '-',
      ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
      '-w',
      '\n%{http_code} %{time_starttransfer} %{time_total} %{size_download}',
      url,
    ]);
    let out = '';
    curl.stdout.on('data', (c: Buffer) => (out += c.toString()));
    curl.on('error', reject);
    curl.on('close', () => {
      clearInterval(sampler);
      sample();
      const [status, first, total, size] = out.trim().split('\n').at(-1)!.split(' ').map(Number);
      resolve({
        status: status!,
        firstByteMs: first! * 1000,
        totalMs: total! * 1000,
        bytes: size!,
        rssGrowth: peak.rss - before.rss,
        heapGrowth: peak.heapUsed - before.heapUsed,
        externalGrowth: peak.external - before.external,
        etag: /^etag: (.*)$/im.exec(out)?.[1]?.trim() ?? '',
      });
    });
  });
}

interface Result {
  kind: string;
  visible: number;
  versionMs: number;
  rows: {
    format: string;
    encoding: string;
    cold: Download;
    warm: Download;
  }[];
  revalidateMs: number;
}

async function benchOne(kind: string, database: Database): Promise<Result> {
  const db = database.db;
  console.error(`[${kind}] seeding ${SERVICES} services…`);
  await seedSynthetic(db, { services: SERVICES, vacancies: 0, seed: 1 });
  if (kind === 'postgres') await db.execute(sql`analyze`);
  const visible = (
    (await db.execute(
      sql`SELECT count(*)::int AS n FROM services WHERE status = 'approved'`,
    )) as unknown as { rows: { n: number }[] }
  ).rows[0]!.n;
  const t = performance.now();
  await openDataVersion(db);
  const versionMs = performance.now() - t;

  const { base, close } = await serveApp(database);
  try {
    // A write before each cold download: a new version, so a new ETag.
    const touch = () =>
      db.execute(sql`UPDATE services SET updated_at = now()
        WHERE id = (SELECT id FROM services WHERE status = 'approved' LIMIT 1)`);
    const rows: Result['rows'] = [];
    for (const format of FORMATS) {
      for (const encoding of ['identity', 'gzip']) {
        const url = `${base}/api/v1/open-data/services.${format}`;
        const headers = { 'accept-encoding': encoding };
        await touch();
        const cold = await download(url, headers);
        const warm = await download(url, headers);
        if (cold.status !== 200 || warm.status !== 200)
          throw new Error(`${format}: ${cold.status}`);
        rows.push({ format, encoding, cold, warm });
        console.error(
          `[${kind}] ${format} ${encoding}: first byte ${ms(cold.firstByteMs)} / ${ms(warm.firstByteMs)}, ` +
            `whole ${ms(cold.totalMs)} / ${ms(warm.totalMs)}, ${mb(cold.bytes)}, rss +${mb(Math.max(cold.rssGrowth, warm.rssGrowth))} ` +
            `(heap +${mb(Math.max(cold.heapGrowth, warm.heapGrowth))}, ` +
            `external +${mb(Math.max(cold.externalGrowth, warm.externalGrowth))})`,
        );
      }
    }
    const etag = (await download(`${base}/api/v1/open-data/services.csv`)).etag;
    const revalidations: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await download(`${base}/api/v1/open-data/services.csv`, { 'if-none-match': etag });
      if (r.status !== 304) throw new Error(`revalidation: ${r.status}`);
      revalidations.push(r.totalMs);
    }
    revalidations.sort((a, b) => a - b);
    return { kind, visible, versionMs, rows, revalidateMs: revalidations[10]! };
  } finally {
    await close();
  }
}

const results: Result[] = [];
if (!args['no-pglite']) {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    results.push(await benchOne('pglite', database));
  } finally {
    await database.close().catch(() => {});
  }
}
if (!args['no-pg']) {
  results.push(await onPostgres(args.pg, (database) => benchOne('postgres', database)));
}

console.log(`\nOpen data, ${SERVICES} services (${results[0]!.visible} visible)\n`);
console.log(
  '| database | file | encoding | size | first byte (after a write / again) | whole file (after a write / again) | memory growth |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  for (const row of r.rows) {
    console.log(
      `| ${r.kind} | ${row.format} | ${row.encoding} | ${mb(row.cold.bytes)} | ` +
        `${ms(row.cold.firstByteMs)} / ${ms(row.warm.firstByteMs)} | ` +
        `${ms(row.cold.totalMs)} / ${ms(row.warm.totalMs)} | ` +
        `${mb(Math.max(row.cold.rssGrowth, row.warm.rssGrowth))} |`,
    );
  }
}
console.log('\n| database | version query | revalidation (304), median |');
console.log('| --- | --- | --- |');
for (const r of results) {
  console.log(`| ${r.kind} | ${ms(r.versionMs)} | ${ms(r.revalidateMs)} |`);
}
process.exit(0);
