import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const server = (
  name: string,
  env: Record<string, string> = {},
): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: 'packages/server',
    include: ['src/**/__tests__/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env,
  },
});

/**
 * One test command for every package. Each package is a project; browser (Playwright) suites
 * live in the `e2e` project and run against the built server. With TEST_DATABASE_URL set, the
 * server suite runs a second time on PostgreSQL.
 */
export default defineConfig({
  test: {
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
      // The same server suite on PostgreSQL 15, when a server is there (.ci/run starts one).
      ...(process.env.TEST_DATABASE_URL
        ? [server('server-pg', { PORUCH_TEST_DB: 'postgres' })]
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
          name: 'e2e',
          root: 'packages/site',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
