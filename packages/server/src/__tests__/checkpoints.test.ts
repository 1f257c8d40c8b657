import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { CHECKPOINT_WAL_BYTES, walSinceCheckpoint } from '../db/checkpoints.js';
import { openDatabase } from '../db/index.js';
import { dumpOnline, takeSnapshot } from '../db/snapshots.js';
import { openEmbedded } from '../db/embedded.js';
import { loadEnv } from '../env.js';
import { testLog } from './helpers/server.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

/**
 * The checkpointer of the embedded database (db/checkpoints.ts) and the snapshots that copy
 * without a checkpoint of their own (db/snapshots.ts), on the app with PGlite on disk.
 */
describe.skipIf(onPostgres)('checkpoints and snapshot copies (PGlite on disk)', () => {
  let dataDir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let client: NonNullable<Awaited<ReturnType<typeof openDatabase>>['embedded']>['client'];
  let seq = 0;

  /** One write of about `kb` KB of WAL (a settings row). */
  const write = async (kb = 64) => {
    const key = `checkpoint-test-${++seq}`;
    await client.query(`INSERT INTO settings (key, value) VALUES ($1, to_jsonb($2::text))`, [
      key,
      // Random text: the WAL does not compress it away.
      Array.from({ length: Math.ceil((kb * 1024) / 9) }, () =>
        Math.random().toString(36).slice(2, 10),
      ).join(' '),
    ]);
    return key;
  };
  const checkpointLsn = async () =>
    (
      await client.query<{ lsn: string }>(
        'SELECT checkpoint_lsn::text AS lsn FROM pg_control_checkpoint()',
      )
    ).rows[0]!.lsn;

  const redoWal = async () =>
    (
      await client.query<{ wal: string }>(
        'SELECT pg_walfile_name(redo_lsn) AS wal FROM pg_control_checkpoint()',
      )
    ).rows[0]!.wal;
  /** Which of `keys` a snapshot file holds, opened as `pnpm restore` would. */
  const keysIn = async (file: string, keys: string[]) => {
    const copy = await openEmbedded('memory://', {
      owner: 'snapshot check',
      loadDataDir: new Blob([await fs.readFile(file)]),
    });
    try {
      const { rows } = await copy.client.query<{ key: string }>(
        'SELECT key FROM settings WHERE key = ANY($1) ORDER BY key',
        [keys],
      );
      return rows.map((r) => r.key);
    } finally {
      await copy.close();
    }
  };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-checkpoints-'));
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    client = database.embedded!.client;
    app = await buildApp({
      env: loadEnv({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        MAIL_WORKER: 'false',
        BACKUP_INTERVAL_MINUTES: '0',
      }),
      database,
      logStream: testLog,
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the WAL since the last checkpoint short while writes go on (snapshots off)', async () => {
    expect(app.checkpoints).not.toBeNull();
    const taken = app.checkpoints!.count;
    // 4 MB of writes, each well under the threshold, as a busy site's stream.
    for (let i = 0; i < 64; i++) await write(64);
    // The server's own timer catches up within a few looks.
    await vi.waitFor(
      async () => expect(await walSinceCheckpoint(client)).toBeLessThan(CHECKPOINT_WAL_BYTES),
      { timeout: 10_000, interval: 100 },
    );
    expect(app.checkpoints!.count).toBeGreaterThan(taken);
    // Each checkpoint wrote only what changed since the one before.
    expect(app.checkpoints!.longestMs).toBeGreaterThan(0);
  });

  it('checks: a checkpoint only once the WAL since the last one reached the threshold', async () => {
    const checkpoints = app.checkpoints!;
    await checkpoints.stop();
    try {
      await client.query('CHECKPOINT');
      await write(4);
      expect(await checkpoints.check()).toBe(false);
      for (let i = 0; i < 6; i++) await write(64);
      expect(await walSinceCheckpoint(client)).toBeGreaterThanOrEqual(CHECKPOINT_WAL_BYTES);
      expect(await checkpoints.check()).toBe(true);
      expect(await walSinceCheckpoint(client)).toBeLessThan(CHECKPOINT_WAL_BYTES);
    } finally {
      checkpoints.start();
    }
  });

  it('snapshots without a checkpoint of their own; the copy has every write made before it', async () => {
    await app.checkpoints!.stop();
    try {
      await client.query('CHECKPOINT');
      // Written after the last checkpoint: in the snapshot only through the WAL it replays.
      const keys = [];
      for (let i = 0; i < 8; i++) keys.push(await write(32));
      const before = await checkpointLsn();
      const result = await takeSnapshot(client, { dataDir, keep: 5 });
      // pg_backup_start would have checkpointed: the pause this avoids.
      expect(await checkpointLsn()).toBe(before);
      expect(result.counts.accounts).toBe(0);
      expect(await keysIn(result.file, keys)).toEqual([...keys].sort());
    } finally {
      app.checkpoints!.start();
    }
  }, 120_000);

  it('copies while checkpoints recycle the WAL: the slot keeps what replay needs', async () => {
    await app.checkpoints!.stop();
    try {
      await client.query('CHECKPOINT');
      const firstWal = await redoWal();
      const keys = [];
      for (let i = 0; i < 4; i++) keys.push(await write(32));
      const file = path.join(dataDir, 'during.pglite.tar.gz');
      // The copy's first call goes first; these writes and checkpoints (PGlite's queue) all run
      // before the call that ends the copy's data part, many while its files are read.
      const dump = dumpOnline(client, path.join(dataDir, 'db'), file);
      const during: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) {
        during.push(write(1024).then((key) => keys.push(key)));
        during.push(client.query('CHECKPOINT'));
      }
      await Promise.all(during);
      // 20 MB of WAL and a checkpoint after it: the copy's first segment was due for recycling.
      expect(await redoWal()).not.toBe(firstWal);
      await dump;
      expect(await keysIn(file, keys)).toEqual([...keys].sort());
      // The slot is gone: the next checkpoint recycles that segment.
      const { rows } = await client.query('SELECT slot_name FROM pg_replication_slots');
      expect(rows).toEqual([]);
    } finally {
      app.checkpoints!.start();
    }
  }, 120_000);
});
