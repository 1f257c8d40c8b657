import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throwawayPostgres } from './helpers/child.js';
import { runCrashWorkload } from './helpers/durability.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

/**
 * Crash durability, short form (CI): a few hundred writes over HTTP — registrations, partner
 * service creates and edits, reports, used marks — from six concurrent writers, the server
 * SIGKILLed in the middle of the stream, restarted on the same data; every write answered with a
 * 2xx must be in the database. The full form (more writes, several kills) is
 * `pnpm --filter @poruch/server bench crash`.
 */
describe(`crash durability (${onPostgres ? 'PostgreSQL' : 'PGlite on disk'})`, () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let drop = async () => {};

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-durability-'));
    if (onPostgres) {
      const target = await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'poruch_durable');
      databaseUrl = target.url;
      drop = target.drop;
    }
  });

  afterAll(async () => {
    await drop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write across a SIGKILL', { timeout: 240_000 }, async () => {
    const result = await runCrashWorkload({
      env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      database: { url: databaseUrl, dataDir: path.join(dataDir, 'db') },
      writes: 300,
      kills: 1,
    });
    console.log(`[poruch] crash durability: ${JSON.stringify(result)}`);
    expect(result.unexpected).toEqual([]);
    expect(result.kills).toBe(1);
    const { registrations, creates, edits, reports, usedMarks } = result.acknowledged;
    expect(registrations + creates + edits + reports + usedMarks).toBeGreaterThanOrEqual(300);
    // Every kind of write took part, so each one is checked.
    for (const n of [registrations, creates, edits, reports, usedMarks]) {
      expect(n).toBeGreaterThan(0);
    }
    // Partners logged in before the kill were asked again after the restart.
    expect(result.sessionsCheckedAfterRestart).toBeGreaterThan(0);
    expect(result.missing).toEqual([]);
  });
});
