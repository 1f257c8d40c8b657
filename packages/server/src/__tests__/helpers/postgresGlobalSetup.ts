/**
 * globalSetup of the `server-pg` project: without TEST_DATABASE_URL, a throwaway PostgreSQL
 * primary and streaming hot standby (postgresCluster.ts) for the whole run, stopped and removed
 * after it. postgresEnv.ts (a setup file) hands their URLs to each test file as
 * TEST_DATABASE_URL and TEST_DATABASE_READ_URL. With TEST_DATABASE_URL set, that server is used.
 */
import type { TestProject } from 'vitest/node';
import { dropPostgresTemplates } from './child.js';
import { startPostgresCluster } from './postgresCluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway primary and standby of the run; null when TEST_DATABASE_URL names one. */
    postgres: { url: string; readUrl: string } | null;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    project.provide('postgres', null);
    // The migrated templates the test databases were copied from (databaseTemplate.ts).
    return () => dropPostgresTemplates(serverUrl);
  }
  const cluster = await startPostgresCluster({ standby: true });
  project.provide('postgres', { url: cluster.url, readUrl: cluster.readUrl! });
  return () => cluster.stop();
}
