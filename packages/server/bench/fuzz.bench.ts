/**
 * Fuzzing, long form: the property-based test of every route (src/__tests__/security/fuzz.test.ts)
 * with more requests and a new seed each run, on PGlite and on PostgreSQL.
 *
 *   pnpm --filter @poruch/server bench fuzz [--runs 100000] [--seed 42] [--quick] [--no-pg]
 *     [--pg postgres://…]
 *
 * `--quick` is the CI size (10,000 requests, the fixed seed). The seed is printed: a failure is
 * replayed with `FUZZ_SEED=<seed> FUZZ_ONLY='<METHOD url>'`. Exits non-zero on a failure.
 * docs/security.md § Fuzzing.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../src/paths.js';
import { benchArgs } from './common.js';

const args = benchArgs({
  runs: { type: 'string' },
  seed: { type: 'string' },
});
const RUNS = String(args.runs ?? (args.quick ? 10_000 : 100_000));
const SEED = String(args.seed ?? (args.quick ? 20_261_123 : Math.floor(Math.random() * 2 ** 31)));

const projects = args['no-pg'] ? ['server'] : ['server', 'server-pg'];
let failed = 0;
for (const project of projects) {
  console.log(`fuzz on ${project}: ${RUNS} requests, seed ${SEED}`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      'pnpm',
      [
        'exec',
        'vitest',
        'run',
        '--project',
        project,
        'packages/server/src/__tests__/security/fuzz.test.ts',
      ],
      {
        cwd: REPO_ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          FUZZ_RUNS: RUNS,
          FUZZ_SEED: SEED,
          // Without --pg, the server-pg project starts its own PostgreSQL.
          ...(project === 'server-pg' && args.pg ? { TEST_DATABASE_URL: args.pg } : {}),
        },
      },
    );
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
