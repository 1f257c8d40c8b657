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
  /** The pid of this process's child that runs snapshot-verify with `role` in its arguments. */
  const childPid = async (role: (cmdline: string) => boolean) => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      for (const entry of await fs.readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
          if (ppid === process.pid && cmdline.includes('snapshot-verify') && role(cmdline)) {
            return Number(entry);
          }
        } catch {
          // Ended meanwhile.
        }
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no such child started');
  };
  /** The verifier's pid, once it is there. */
  const verifierPid = () => childPid((cmdline) => !cmdline.includes('--gzip'));
  /** The pid of the snapshot writer that writes `partial`, once it is there. */
  const writerPid = (partial: string) =>
    childPid((cmdline) => cmdline.split('\0').join(' ').includes(`--gzip ${partial}`));

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

  /** The files of the copies below in the snapshots' folder (whole or partial). */
  const others = async () =>
    (await fs.readdir(path.join(dataDir, 'backups'))).filter((n) =>
      /^poruch-(child|cut)\./.test(n),
    );

  it('gzips and writes the copy in a child process at a low priority', async () => {
    const target = path.join(dataDir, 'backups', 'poruch-child.pglite.tar.gz');
    const dumping = dumpOnline(embedded.client, path.join(dataDir, 'db'), target);
    dumping.catch(() => {}); // awaited below
    let pid: number;
    try {
      pid = await writerPid(`${target}.partial`);
      // Lowered by the server as soon as it was started, before the child's own threads.
      expect(niceOf(pid)).toBe(VERIFIER_NICE);
    } finally {
      await dumping.catch(() => {});
    }
    const { bytes } = await dumping;
    expect((await fs.stat(target)).size).toBe(bytes);
    expect((await fs.stat(target)).mode & 0o777).toBe(0o600);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(await verifySnapshot(target, { dataDir })).toEqual({
      accounts: 0,
      services: 1234,
      vacancies: 0,
      reports: 5,
    });
    await fs.rm(target);
    expect(await others()).toEqual([]);
  }, 300_000);

  it('leaves no file and no child when the copy is cancelled or its writer fails', async () => {
    const dbDir = path.join(dataDir, 'db');
    const target = path.join(dataDir, 'backups', 'poruch-cut.pglite.tar.gz');
    const partial = `${target}.partial`;

    // Cancelled (the server stops) while the copy is under way.
    const abort = new AbortController();
    const cancelled = dumpOnline(embedded.client, dbDir, target, abort.signal);
    cancelled.catch(() => {}); // awaited below
    const cancelledPid = await writerPid(partial);
    abort.abort(new Error('the server is stopping'));
    await expect(cancelled).rejects.toThrow('the server is stopping');
    expect(existsSync(`/proc/${cancelledPid}`)).toBe(false);
    expect(await others()).toEqual([]);

    // The writer killed (as the OS's out-of-memory killer would).
    const killed = dumpOnline(embedded.client, dbDir, target);
    killed.catch(() => {}); // awaited below
    process.kill(await writerPid(partial), 'SIGKILL');
    await expect(killed).rejects.toThrow(/the snapshot writer stopped \(signal SIGKILL\)/);
    expect(await others()).toEqual([]);

    // The writer cannot write its file: its own error, not the broken pipe's.
    const failed = dumpOnline(embedded.client, dbDir, target);
    failed.catch(() => {}); // awaited below
    const failedPid = await writerPid(partial);
    await fs.rm(partial);
    await expect(failed).rejects.toThrow(/ENOENT.*poruch-cut\.pglite\.tar\.gz\.partial/);
    expect(existsSync(`/proc/${failedPid}`)).toBe(false);
    expect(await others()).toEqual([]);
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
