import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/index.js';
import { reports, services, vacancies } from '../db/schema.js';
import { goodSnapshots, type GoodSnapshot } from '../db/snapshots.js';
import { runCli, startChildServer, throwawayPostgres, type ChildServer } from './helpers/child.js';
import { TestClient } from './helpers/client.js';
import { runBackupCommand } from '../db/snapshot-child.js';
import { registration } from './helpers/fixtures.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;
const METRICS_TOKEN = 'snapshot-test-metrics-token';
const built = { built: true };

/** What the writers were told was saved, with the time the answer came. */
interface Ack {
  kind: 'service' | 'vacancy' | 'report';
  id: string;
  at: number;
}

/** The server's /metrics lines about snapshots and checkpoints. */
async function snapshotMetrics(server: ChildServer) {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter((l) => l.startsWith('poruch_snapshot') || l.startsWith('poruch_checkpoint'));
}

/**
 * The recovery drill of docs/operations.md § Recovery, on the built server (dist/main.js and the
 * dist CLIs) over the embedded database: writes with snapshots on, the folder damaged as an OS
 * crash could leave it, the refusal at start, `restore --latest`, and every write acknowledged
 * before the restored snapshot is there.
 */
describe.skipIf(onPostgres)('snapshots and the recovery drill (built server, PGlite)', () => {
  let dataDir: string;
  let offsite: string;
  let env: Record<string, string>;
  let approvedId: string;
  const acks: Ack[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-snapshots-'));
    offsite = path.join(dataDir, 'offsite');
    await fs.mkdir(offsite);
    env = {
      DATA_DIR: dataDir,
      // The first snapshot 12 s after the start (none yet), the next 12 s after it; one kept.
      BACKUP_INTERVAL_MINUTES: '0.2',
      BACKUP_KEEP: '1',
      // The off-machine copy: here into another folder; the path arrives as "$1".
      BACKUP_COMMAND: `cp "$1" ${offsite}/`,
      METRICS_TOKEN,
      RATE_SIGNUP_PER_IP: '100000',
      TRUST_PROXY: 'true',
    };
  });

  afterAll(async () => {
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('snapshots while serving, refuses a damaged folder, restores the latest, starts', async () => {
    // 1. A stream of services, vacancies and reports with snapshots on.
    const t0 = Date.now();
    const server = await startChildServer(env, 120_000, built);
    let snapshots: GoodSnapshot[];
    const backupOut = path.join(dataDir, 'manual.pglite.tar.gz');
    try {
      // An approved service to report: an administrator (created by the running server through
      // its socket) approves a partner's.
      const adminEmail = 'drill-admin@example.org';
      const created = await runCli('admin-create', ['--email', adminEmail], env, built);
      expect(created.code, created.out).toBe(0);
      const password = /Password \(shown once, store it now\): (\S+)/.exec(created.out)![1]!;
      const admin = new TestClient(server.url);
      await admin.init();
      expect((await admin.post('/api/v1/auth/login', { email: adminEmail, password })).status).toBe(
        200,
      );
      const partner = new TestClient(server.url);
      await partner.init();
      const first = await partner.post('/api/v1/auth/register', registration());
      expect(first.status).toBe(201);
      approvedId = first.body.service.id;
      expect((await admin.post(`/api/v1/admin/services/${approvedId}/approve`)).status).toBe(200);
      let stop = false;
      let seq = 0;
      const writer = async () => {
        while (!stop) {
          const owner = new TestClient(server.url);
          await owner.init();
          const body = registration();
          body.service.name = `Drill ${++seq}`;
          const reg = await owner.post('/api/v1/auth/register', body, {
            headers: { 'x-forwarded-for': `10.9.${seq >> 8}.${seq & 255}` },
          });
          expect(reg.status).toBe(201);
          acks.push({ kind: 'service', id: reg.body.service.id, at: Date.now() });
          const vacancy = await owner.post(`/api/v1/my/services/${reg.body.service.id}/vacancies`, {
            name: `Vacancy ${seq}`,
            requirements: '-',
            description: '-',
            salary: '-',
            experience: 'any',
            isOpen: true,
          });
          expect(vacancy.status).toBe(201);
          acks.push({ kind: 'vacancy', id: vacancy.body.id, at: Date.now() });
          const report = await new TestClient(server.url).post(
            '/api/v1/reports',
            { serviceId: approvedId, reason: 'other', description: `Drill report ${seq}` },
            { headers: { 'x-forwarded-for': `10.8.${seq >> 8}.${seq & 255}` } },
          );
          expect(report.status).toBe(201);
          acks.push({ kind: 'report', id: report.body.id, at: Date.now() });
        }
      };
      const writers = [writer(), writer()];
      // Writes go on until a snapshot was taken and verified meanwhile, and through the next
      // (`pnpm backup`'s).
      const deadline = Date.now() + 60_000;
      while ((snapshots = await goodSnapshots(dataDir)).length < 1 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      // `pnpm backup` while the server runs: the server takes a fresh snapshot for it.
      const askedAt = Date.now();
      const backup = await runCli('backup', ['--out', backupOut], { DATA_DIR: dataDir }, built);
      expect(backup.code, backup.out).toBe(0);
      expect(backup.out).toContain(`the running server (process ${server.pid})`);
      stop = true;
      await Promise.all(writers);
      snapshots = await goodSnapshots(dataDir);
      expect(snapshots.length).toBe(1); // BACKUP_KEEP: the older one was deleted
      const metrics = await snapshotMetrics(server);
      expect(metrics.find((l) => l.startsWith('poruch_snapshots_total '))).toMatch(/ [2-9]\d*$/);
      expect(metrics).toContain('poruch_snapshot_failures_total{stage="snapshot"} 0');
      expect(metrics).toContain('poruch_snapshot_failures_total{stage="verify"} 0');
      expect(metrics).toContain('poruch_snapshot_failures_total{stage="command"} 0');
      const age = metrics.find((l) => l.startsWith('poruch_snapshot_last_success_age_seconds '));
      // The newest good snapshot is the one `pnpm backup` asked for: no older than the asking.
      expect(Number(age?.split(' ')[1])).toBeGreaterThanOrEqual(0);
      expect(Number(age?.split(' ')[1])).toBeLessThanOrEqual((Date.now() - askedAt) / 1000 + 1);
      // The checkpointer kept the WAL short while the writers wrote.
      const taken = metrics.find((l) => l.startsWith('poruch_checkpoints_total '));
      expect(Number(taken?.split(' ')[1])).toBeGreaterThan(0);
      // BACKUP_COMMAND copied each good snapshot.
      const copied = await fs.readdir(offsite);
      expect(copied.length).toBeGreaterThanOrEqual(2); // the deleted one's copy stays
      expect(copied).toContain(path.basename(snapshots[0]!.path));
    } finally {
      // 2. The machine goes down: no clean stop.
      await server.kill('SIGKILL');
    }
    expect(acks.length).toBeGreaterThan(10);
    // The copy `pnpm backup` made is a whole backup too.
    expect((await fs.stat(backupOut)).mode & 0o777).toBe(0o600);

    console.log(`[drill] writes and snapshots done at ${Date.now() - t0} ms`);
    // 2. Damage the folder as an OS crash could: the newest WAL segment torn, a data file gone.
    const walDir = path.join(dataDir, 'db', 'pg_wal');
    const segments = [];
    for (const name of await fs.readdir(walDir)) {
      if (/^[0-9A-F]{24}$/.test(name)) {
        segments.push({ name, mtime: (await fs.stat(path.join(walDir, name))).mtimeMs });
      }
    }
    const newest = segments.sort((a, b) => b.mtime - a.mtime)[0]!;
    await fs.truncate(path.join(walDir, newest.name), 8192);
    // The largest data file of the database (a table's or an index's), as a crash could lose it.
    const base = path.join(dataDir, 'db', 'base');
    const files: { file: string; size: number }[] = [];
    for (const db of await fs.readdir(base)) {
      for (const name of await fs.readdir(path.join(base, db))) {
        if (!/^\d+$/.test(name)) continue;
        const file = path.join(base, db, name);
        files.push({ file, size: (await fs.stat(file)).size });
      }
    }
    await fs.rm(files.sort((a, b) => b.size - a.size)[0]!.file);

    /** Starts the server with SEED_DEMO on: its output, if it exits; else 'started'. */
    const startRefused = () =>
      startChildServer({ ...env, SEED_DEMO: 'true' }, 60_000, built).then(
        async (s) => {
          await s.kill('SIGKILL');
          return 'started';
        },
        (error: Error) => error.message,
      );
    // 3. The server refuses, naming the newest good snapshot and the restore command; it seeds
    // nothing over the lost catalogue.
    const [latest] = await goodSnapshots(dataDir);
    const refusal = await startRefused();
    expect(refusal).toMatch(/^server exited \(1\)/);
    expect(refusal).toMatch(/will not open|is damaged/);
    expect(refusal).toContain(`The newest good snapshot is ${latest!.path}`);
    expect(refusal).toContain('pnpm restore --latest --force');
    expect(refusal).toContain('node packages/server/dist/restore.js --latest --force');

    // Without the folder at all, it refuses too: snapshots say there was a catalogue.
    await fs.rename(path.join(dataDir, 'db'), path.join(dataDir, 'db.damaged'));
    const empty = await startRefused();
    expect(empty).toMatch(/^server exited \(1\)/);
    expect(empty).toContain('is missing or empty');
    expect(empty).toMatch(/pnpm restore --latest\n/);

    console.log(`[drill] refusals done at ${Date.now() - t0} ms`);
    // 4. Restore the latest snapshot: every write acknowledged before it was taken is there.
    const restore = await runCli('restore', ['--latest'], { DATA_DIR: dataDir }, built);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toContain(latest!.path);
    const before = acks.filter((a) => a.at < Date.parse(latest!.createdAt));
    expect(before.length).toBeGreaterThan(0);
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db'), migrate: false });
    try {
      const ids = (kind: Ack['kind']) => before.filter((a) => a.kind === kind).map((a) => a.id);
      const found = async (
        table: typeof services | typeof vacancies | typeof reports,
        want: string[],
      ) =>
        want.length
          ? (await database.db.select({ id: table.id }).from(table).where(inArray(table.id, want)))
              .length
          : 0;
      expect(await found(services, ids('service'))).toBe(ids('service').length);
      expect(await found(vacancies, ids('vacancy'))).toBe(ids('vacancy').length);
      expect(await found(reports, ids('report'))).toBe(ids('report').length);
      expect(latest!.counts.services).toBeGreaterThanOrEqual(ids('service').length + 1);
    } finally {
      await database.close();
    }

    console.log(`[drill] restored and checked at ${Date.now() - t0} ms`);
    // 5. The server starts.
    const again = await startChildServer(env, 60_000, { built: true });
    try {
      expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
    } finally {
      await again.kill('SIGTERM');
    }
  }, 300_000);
});

/** On PostgreSQL the server takes no snapshots: its own backups are PostgreSQL's (pg_dump, WAL). */
describe.runIf(onPostgres)('no snapshots on PostgreSQL', () => {
  it('does not start the snapshot job', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-snapshots-pg-'));
    const target = await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'poruch_snap');
    try {
      const server = await startChildServer(
        {
          DATA_DIR: dataDir,
          DATABASE_URL: target.url,
          BACKUP_INTERVAL_MINUTES: '0.001',
          METRICS_TOKEN,
        },
        60_000,
        built,
      );
      try {
        await new Promise((r) => setTimeout(r, 1000));
        expect(await snapshotMetrics(server)).toEqual([]);
        await expect(fs.readdir(path.join(dataDir, 'backups'))).rejects.toThrow();
      } finally {
        await server.kill('SIGTERM');
      }
    } finally {
      await target.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.skipIf(onPostgres)('snapshot files and BACKUP_COMMAND', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-snapshot-files-'));
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('counts only snapshots with a manifest whose file is whole, newest first', async () => {
    const backups = path.join(dir, 'backups');
    await fs.mkdir(backups);
    const write = async (name: string, bytes: number, manifest: object | null) => {
      await fs.writeFile(path.join(backups, name), Buffer.alloc(bytes));
      if (manifest) {
        await fs.writeFile(path.join(backups, `${name}.json`), JSON.stringify(manifest));
      }
    };
    const counts = { accounts: 1, services: 2, vacancies: 3, reports: 4 };
    const m = (file: string, createdAt: string, bytes: number) => ({
      file,
      createdAt,
      bytes,
      verified: true,
      counts,
    });
    await write(
      'poruch-a.pglite.tar.gz',
      10,
      m('poruch-a.pglite.tar.gz', '2026-01-01T00:00:00Z', 10),
    );
    await write(
      'poruch-b.pglite.tar.gz',
      10,
      m('poruch-b.pglite.tar.gz', '2026-01-03T00:00:00Z', 10),
    );
    // Newer, but not verified (no manifest), cut short, or a half-written leftover.
    await write('poruch-c.pglite.tar.gz', 10, null);
    await write(
      'poruch-d.pglite.tar.gz',
      5,
      m('poruch-d.pglite.tar.gz', '2026-01-04T00:00:00Z', 10),
    );
    await write('poruch-e.pglite.tar.gz.partial', 10, null);
    const good = await goodSnapshots(dir);
    expect(good.map((g) => path.basename(g.path))).toEqual([
      'poruch-b.pglite.tar.gz',
      'poruch-a.pglite.tar.gz',
    ]);
  });

  it('runs BACKUP_COMMAND with the path, and reports failures and timeouts', async () => {
    const file = path.join(dir, 'a snapshot.pglite.tar.gz');
    await fs.writeFile(file, 'x');
    const copies = path.join(dir, 'copies');
    await fs.mkdir(copies);
    // The path appended (with a space in it), or given as "$1".
    await runBackupCommand(`cp -t ${copies}`, file, 10_000);
    await runBackupCommand(`cp "$1" ${copies}/second`, file, 10_000);
    expect((await fs.readdir(copies)).sort()).toEqual(['a snapshot.pglite.tar.gz', 'second']);
    await expect(runBackupCommand('echo no space left >&2; exit 3', file, 10_000)).rejects.toThrow(
      /exit 3.*no space left/,
    );
    const started = Date.now();
    await expect(runBackupCommand('sleep 30 # "$1"', file, 300)).rejects.toThrow(/was killed/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
