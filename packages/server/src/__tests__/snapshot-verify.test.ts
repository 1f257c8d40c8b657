import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded, type Embedded } from '../db/embedded.js';
import {
  dumpOnline,
  removeVerifyLeftovers,
  VERIFIER_NICE,
  verifyDir,
  verifySnapshot,
} from '../db/snapshots.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

/** The nice value in a /proc/<pid>[/task/<tid>]/stat file (Linux). */
const niceIn = (stat: string) => {
  const text = readFileSync(stat, 'utf8');
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[16]);
};
const niceOf = (pid: number) => niceIn(`/proc/${pid}/stat`);
const threadNices = async (pid: number) =>
  (await fs.readdir(`/proc/${pid}/task`)).map((tid) => niceIn(`/proc/${pid}/task/${tid}/stat`));

/**
 * The snapshot's verification (db/snapshots.ts verifySnapshot, db/snapshot-verify.ts): a child
 * process at a low priority that unpacks the snapshot into a scratch folder and opens it there;
 * the folder is gone afterwards, also when the child was killed, and leftovers of a verifier
 * that died with its server are removed.
 */
describe.skipIf(onPostgres)('snapshot verification in a child process', () => {
  let dataDir: string;
  let embedded: Embedded;
  let file: string;
  const scratches = async () => {
    try {
      return await fs.readdir(verifyDir(dataDir));
    } catch {
      return [];
    }
  };
  /** The verifier's pid: this process's child that runs snapshot-verify, once it is there. */
  const verifierPid = async () => {
    for (let i = 0; i < 2400; i++) {
      for (const entry of await fs.readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
          if (ppid === process.pid && cmdline.includes('snapshot-verify')) return Number(entry);
        } catch {
          // Ended meanwhile.
        }
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no verifier started');
  };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-verify-'));
    const dbDir = path.join(dataDir, 'db');
    embedded = await openEmbedded(dbDir, { owner: 'test' });
    for (const table of ['accounts', 'services', 'vacancies', 'reports']) {
      await embedded.client.query(`CREATE TABLE ${table} (id int)`);
    }
    await embedded.client.query('INSERT INTO services SELECT generate_series(1, 1234)');
    await embedded.client.query('INSERT INTO reports SELECT generate_series(1, 5)');
    await fs.mkdir(path.join(dataDir, 'backups'));
    file = path.join(dataDir, 'backups', 'poruch-test.pglite.tar.gz');
    await dumpOnline(embedded.client, dbDir, file);
  }, 300_000);

  afterAll(async () => {
    await embedded?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('counts the rows in a child process at a low priority, then removes its folder', async () => {
    const counting = verifySnapshot(file, { dataDir });
    counting.catch(() => {}); // awaited below
    try {
      const pid = await verifierPid();
      // Another process: once its threads are started, every one of them at the verifier's nice
      // value (right after the fork it has only one).
      await expect
        .poll(
          async () => {
            const nices = await threadNices(pid);
            return nices.length > 1 && nices.every((n) => n === VERIFIER_NICE);
          },
          { timeout: 60_000, interval: 20 },
        )
        .toBe(true);
      expect(niceOf(pid)).toBe(VERIFIER_NICE);
    } finally {
      await counting.catch(() => {}); // the next test looks for the next verifier
    }
    expect(await counting).toEqual({ accounts: 0, services: 1234, vacancies: 0, reports: 5 });
    expect(await scratches()).toEqual([]);
  }, 300_000);

  it('removes the folder when the verifier is killed, and when it is cancelled', async () => {
    const killed = verifySnapshot(file, { dataDir });
    killed.catch(() => {}); // awaited below
    const pid = await verifierPid();
    // Killed while it unpacks or opens the copy (as the OS's out-of-memory killer would).
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, 'SIGKILL');
    await expect(killed).rejects.toThrow(/the verifier stopped \(signal SIGKILL\)/);
    expect(await scratches()).toEqual([]);

    const abort = new AbortController();
    const cancelled = verifySnapshot(file, { dataDir, signal: abort.signal });
    cancelled.catch(() => {}); // awaited below
    const pid2 = await verifierPid();
    abort.abort(new Error('the server is stopping'));
    await expect(cancelled).rejects.toThrow('the server is stopping');
    expect(await scratches()).toEqual([]);
    expect(existsSync(`/proc/${pid2}`)).toBe(false);
  }, 300_000);

  it('refuses a damaged snapshot and removes the folder', async () => {
    const damaged = path.join(dataDir, 'backups', 'poruch-damaged.pglite.tar.gz');
    const whole = await fs.readFile(file);
    await fs.writeFile(damaged, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(verifySnapshot(damaged, { dataDir })).rejects.toThrow();
    expect(await scratches()).toEqual([]);
  }, 300_000);

  it("removes a dead verifier's leftovers, not a running one's", async () => {
    // A process that has ended: its pid is free.
    const ended = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((r) => ended.on('exit', () => r(ended.pid!)));
    const dead = path.join(verifyDir(dataDir), `${deadPid}-1`);
    const live = path.join(verifyDir(dataDir), `${process.ppid}-1`);
    for (const dir of [dead, live]) {
      await fs.mkdir(path.join(dir, 'db', 'base'), { recursive: true });
      await fs.writeFile(path.join(dir, 'db', 'base', '1234'), 'x');
    }
    await removeVerifyLeftovers(dataDir);
    expect(await scratches()).toEqual([`${process.ppid}-1`]);
    await fs.rm(live, { recursive: true });
  });
});
