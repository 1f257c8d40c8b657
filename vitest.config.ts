import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresBinDir } from './packages/server/src/__tests__/helpers/postgresCluster.js';

const server = (
  name: string,
  extra: Pick<
    NonNullable<TestProjectInlineConfiguration['test']>,
    'env' | 'globalSetup' | 'setupFiles' | 'exclude'
  > = {},
): TestProjectInlineConfiguration => ({
  test: {
    ...extra,
    name,
    root: 'packages/server',
    include: ['src/**/__tests__/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(extra.exclude ?? [])],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

/**
 * One test command for every package. Each package is a project; browser (Playwright) suites
 * live in the `e2e` project and run against the built server. The server suite runs a second time
 * on PostgreSQL (`server-pg`): on the server named by TEST_DATABASE_URL (and its standby,
 * TEST_DATABASE_READ_URL) when set, else on a throwaway primary and hot standby started from the
 * installed PostgreSQL binaries for the run and removed after it (postgresCluster.ts).
 *
 * Every project shows the console of failing tests only (`silent: 'passed-only'`): the servers the
 * tests start log there (helpers/server.ts `testLog`, child processes' output), so a passing run
 * stays quiet and a failure comes with its server's log.
 *
 * At least two test files run at a time, also on a 2-core machine where vitest would run one: a
 * file spends much of its time waiting on what it started (a server process, PostgreSQL,
 * Chromium, a password hash in the thread pool), so one file at a time left a core idle. Files
 * share nothing: each starts its own servers on free ports over its own data, and the browser
 * suites their own Chromium.
 */
export default defineConfig({
  test: {
    silent: 'passed-only',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['src/**/__tests__/**/*.test.ts'],
          environment: 'node',
        },
      },
      server('server'),
      // The same server suite on PostgreSQL 15, when one is named or its binaries are installed.
      ...(process.env.TEST_DATABASE_URL || postgresBinDir()
        ? [
            server('server-pg', {
              env: { PORUCH_TEST_DB: 'postgres' },
              // What these check does not touch the database (which proxy's X-Forwarded-For is
              // believed; the permissions of DATA_DIR's files and the embedded database's
              // folder; the place-name gazetteer; the mail templates' escaping; the env variables
              // the docs name): once, on PGlite, is enough. The release script's and the DATA_DIR
              // lock's suites skip themselves here (no database, or PGlite's folder only): not
              // even loaded.
              exclude: [
                'src/__tests__/trust-proxy.test.ts',
                'src/__tests__/private-files.test.ts',
                'src/geocoding/__tests__/gazetteer.test.ts',
                'src/mail/__tests__/mail-xss.test.ts',
                'src/__tests__/ops-docs.test.ts',
                'src/__tests__/release.test.ts',
                'src/__tests__/datadir-lock.test.ts',
              ],
              globalSetup: ['src/__tests__/helpers/postgresGlobalSetup.ts'],
              setupFiles: ['src/__tests__/helpers/postgresEnv.ts'],
            }),
          ]
        : []),
      {
        test: {
          name: 'widgets',
          root: 'packages/widgets',
          include: ['src/**/__tests__/**/*.test.ts', 'src/**/__tests__/**/*.test.tsx'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'site',
          root: 'packages/site',
          include: ['src/**/__tests__/**/*.test.ts', 'src/**/__tests__/**/*.test.tsx'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'packages/site',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
