/**
 * Login timing benchmark: does a wrong login tell whether the address has an account, or a
 * pending reset?
 *
 *   pnpm --filter @poruch/server bench login [--tries 20] [--tolerance 20] [--pg postgres://…]
 *     [--no-pg]
 *
 * Per database (PGlite in memory, then PostgreSQL unless `--no-pg`): over HTTP, `--tries` wrong
 * logins each (interleaved, one round of each first as a warm-up) for an unknown address, a known
 * one, a known one with a pending reset (`POST auth/reset-password`) and a known one whose
 * temporary password has expired. Prints the median and p90 of each and exits non-zero when the
 * medians differ by more than `--tolerance` per cent (the slowest against the fastest).
 */
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/index.js';
import { accounts } from '../src/db/schema.js';
import { hashPassword } from '../src/lib/passwords.js';
import { TestClient } from '../src/__tests__/helpers/client.js';
import { benchArgs, pct, onPostgres, serveApp } from './common.js';

const args = benchArgs({
  tries: { type: 'string' },
  tolerance: { type: 'string' },
});
const TRIES = Number(args.tries ?? 20);
const TOLERANCE = Number(args.tolerance ?? 20);

const CASES = ['unknown address', 'known address', 'pending reset', 'expired reset'] as const;
type Case = (typeof CASES)[number];

async function benchOne(kind: string, database: Database) {
  const { base, close } = await serveApp(database, {
    MAIL_WORKER: 'false',
    RATE_LOGIN_PER_IP: '100000',
    RATE_LOGIN_PER_ACCOUNT: '100000',
    RATE_SIGNUP_PER_IP: '100000',
  });
  try {
    const stamp = Date.now();
    const email = (c: Case) => `${c.replace(' ', '-')}-${stamp}@bench.test`;
    const passwordHash = await hashPassword('the right password');
    for (const c of CASES.slice(1)) {
      await database.db
        .insert(accounts)
        .values({ email: email(c), passwordHash, type: 'PARTNER', firstName: 'bench' });
    }
    const client = new TestClient(base);
    await client.init();
    for (const c of ['pending reset', 'expired reset'] as const) {
      const res = await client.post('/api/v1/auth/reset-password', { email: email(c) });
      if (res.status !== 200) throw new Error(`reset: ${res.status} ${JSON.stringify(res.body)}`);
    }
    await database.db
      .update(accounts)
      .set({ tempPasswordExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(accounts.email, email('expired reset')));

    const times = Object.fromEntries(CASES.map((c) => [c, [] as number[]])) as Record<
      Case,
      number[]
    >;
    for (let round = -1; round < TRIES; round++) {
      for (const c of CASES) {
        const started = performance.now();
        const res = await client.post('/api/v1/auth/login', {
          email: email(c),
          password: `wrong guess ${round}`,
        });
        const took = performance.now() - started;
        if (res.status !== 401) throw new Error(`${c}: ${res.status} ${JSON.stringify(res.body)}`);
        if (round >= 0) times[c].push(took);
      }
    }
    return { kind, times };
  } finally {
    await close(); // closes the database too
  }
}

const results: Awaited<ReturnType<typeof benchOne>>[] = [];
results.push(await benchOne('pglite', await openDatabase({ dataDir: 'memory://' })));
if (!args['no-pg']) results.push(await onPostgres(args.pg, (db) => benchOne('postgres', db)));

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Run ${new Date().toISOString().slice(0, 10)} on ${cpu} (${os.cpus().length} cores), ` +
    `Node ${process.version}; ${TRIES} wrong logins per case, interleaved, over HTTP.\n`,
);
console.log(`| wrong login, median / p90 | ${results.map((r) => r.kind).join(' | ')} |`);
console.log(`|---|${results.map(() => '---').join('|')}|`);
const ms = (x: number) => `${x.toFixed(0)} ms`;
let failed = false;
const spreads: string[] = [];
for (const c of CASES) {
  const cells = results.map((r) => {
    const sorted = [...r.times[c]].sort((a, b) => a - b);
    return `${ms(pct(sorted, 50))} / ${ms(pct(sorted, 90))}`;
  });
  console.log(`| ${c} | ${cells.join(' | ')} |`);
}
for (const r of results) {
  const medians = CASES.map((c) =>
    pct(
      [...r.times[c]].sort((a, b) => a - b),
      50,
    ),
  );
  const spread = (Math.max(...medians) / Math.min(...medians) - 1) * 100;
  spreads.push(`${r.kind} ${spread.toFixed(1)} %`);
  if (spread > TOLERANCE) failed = true;
}
console.log(
  `\nslowest median over fastest: ${spreads.join(', ')} (at most ${TOLERANCE} % allowed)`,
);
if (failed) {
  console.error('login time depends on the address: FAILED');
  process.exitCode = 1;
}
