import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../app.js';
import { openDatabase, type Database } from '../../db/index.js';
import { loadEnv, type Env } from '../../env.js';
import type { LogDestination } from '../../logging.js';
import { throwawayPostgres } from './child.js';
import { pgliteTemplateDump, postgresTemplateName } from './databaseTemplate.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  database: Database;
  env: Env;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Where test servers log: the test's console, which the test run shows for a failing test only
 * (`silent: 'passed-only'` in vitest.config.ts), so a passing run stays quiet.
 */
export const testLog: LogDestination = { write: (line) => console.log(line.trimEnd()) };

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL in the `server-pg` project (CI runs both). Both
 * start as a copy of a migrated template (databaseTemplate.ts).
 */
export async function freshDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (process.env.PORUCH_TEST_DB !== 'postgres' || !serverUrl) {
    const database = await openDatabase({
      dataDir: 'memory://',
      loadDataDir: await pgliteTemplateDump(),
    });
    return { database, drop: async () => {} };
  }
  const target = await throwawayPostgres(serverUrl, 'poruch_test', {
    template: await postgresTemplateName(serverUrl),
  });
  const database = await openDatabase({ url: target.url, dataDir: '' });
  return { database, drop: target.drop };
}

/**
 * The real HTTP server on a loopback port (127.0.0.1, or the HOST override: `::1`, `::`), over a
 * fresh database.
 */
export async function startTestServer(
  overrides: Record<string, string> = {},
  /** Runs before the server listens: extra routes for a test. */
  beforeListen?: (app: FastifyInstance) => void,
  /** buildApp's options beyond env and database (a widgets build of the test's own). */
  appOptions: Pick<AppOptions, 'widgetsDir' | 'now'> = {},
): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-test-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    PUBLIC_URL: 'http://localhost:8080',
    RATE_LOGIN_PER_IP: '1000',
    RATE_LOGIN_PER_ACCOUNT: '1000',
    RATE_SIGNUP_PER_IP: '1000',
    ...overrides,
  });
  const { database, drop } = await freshDatabase();
  const app = await buildApp({ ...appOptions, env, database, logStream: testLog });
  beforeListen?.(app);
  const address = await app.listen({ port: 0, host: overrides.HOST ?? '127.0.0.1' });
  return {
    url: address,
    app,
    database,
    env,
    dataDir,
    close: async () => {
      await app.close();
      await drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
