/**
 * Crash durability, full form: a stream of writes over HTTP (registrations, partner service
 * creates and edits, reports, used marks) from concurrent writers, the server SIGKILLed several
 * times in the middle of it and restarted on the same data; every write acknowledged with a 2xx
 * must be in the database at the end. On PGlite (on disk) and PostgreSQL.
 *
 *   pnpm --filter @poruch/server bench crash [--writes 3000] [--kills 5] [--lanes 8]
 *     [--quick] [--no-pg] [--no-pglite] [--pg postgres://…]
 *
 * `--quick` is the CI size (300 writes, one kill), as the test in __tests__/durability.test.ts.
 * Exits non-zero when a write is missing. docs/security.md § Crash durability has the figures.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { throwawayPostgres } from '../src/__tests__/helpers/child.js';
import { runCrashWorkload, type CrashWorkloadResult } from '../src/__tests__/helpers/durability.js';
import { benchArgs, benchPostgres } from './common.js';

const args = benchArgs({
  writes: { type: 'string' },
  kills: { type: 'string' },
  lanes: { type: 'string' },
  'no-pglite': { type: 'boolean', default: false },
});
const WRITES = Number(args.writes ?? (args.quick ? 300 : 3000));
const KILLS = Number(args.kills ?? (args.quick ? 1 : 5));
const LANES = Number(args.lanes ?? 8);

const results: { kind: string; result: CrashWorkloadResult }[] = [];

async function one(kind: string, url?: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-crash-bench-'));
  try {
    const result = await runCrashWorkload({
      env: { DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) },
      database: { url, dataDir: path.join(dataDir, 'db') },
      writes: WRITES,
      kills: KILLS,
      lanes: LANES,
      log: (line) => console.error(`[${kind}] ${line}`),
    });
    results.push({ kind, result });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (!args['no-pglite']) await one('PGlite');
if (!args['no-pg']) {
  const target = await throwawayPostgres(await benchPostgres(args.pg), 'poruch_crash_bench');
  try {
    await one('PostgreSQL', target.url);
  } finally {
    await target.drop();
  }
}

console.log(
  `\n${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${os.cpus().length} CPUs · ` +
    `Node ${process.version} · ${WRITES} writes, ${KILLS} SIGKILLs, ${LANES} writers · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
);
console.log(`| | ${results.map((r) => r.kind).join(' | ')} |`);
console.log(`|---|${results.map(() => '---').join('|')}|`);
const row = (label: string, cell: (r: CrashWorkloadResult) => string | number) =>
  console.log(`| ${label} | ${results.map((r) => cell(r.result)).join(' | ')} |`);
row('acknowledged writes', (r) => Object.values(r.acknowledged).reduce((a, b) => a + b, 0));
row(
  'registrations / creates / edits / reports / used marks',
  (r) =>
    `${r.acknowledged.registrations} / ${r.acknowledged.creates} / ${r.acknowledged.edits} / ` +
    `${r.acknowledged.reports} / ${r.acknowledged.usedMarks}`,
);
row('SIGKILLs', (r) => r.kills);
row('requests cut by a kill', (r) => r.inFlightAtKill);
row('restart to /healthz (median)', (r) => {
  const s = [...r.restartMs].sort((a, b) => a - b);
  return s.length ? `${(s[Math.floor(s.length / 2)]! / 1000).toFixed(1)} s` : '-';
});
row('sessions from before a kill checked after it', (r) => r.sessionsCheckedAfterRestart);
row('unexpected answers', (r) => r.unexpected.length);
row('**acknowledged writes missing**', (r) => `**${r.missing.length}**`);
row('elapsed', (r) => `${(r.elapsedMs / 1000).toFixed(0)} s`);

for (const { kind, result } of results) {
  for (const line of [...result.unexpected, ...result.missing].slice(0, 20)) {
    console.error(`[${kind}] ${line}`);
  }
}
process.exitCode = results.some((r) => r.result.missing.length || r.result.unexpected.length)
  ? 1
  : 0;
