/**
 * Setup file of the `server-pg` project: the throwaway PostgreSQL of postgresGlobalSetup.ts as
 * TEST_DATABASE_URL and TEST_DATABASE_READ_URL, before each test file is loaded.
 */
import { inject } from 'vitest';

const postgres = inject('postgres');
if (postgres) {
  process.env.TEST_DATABASE_URL = postgres.url;
  process.env.TEST_DATABASE_READ_URL = postgres.readUrl;
}
