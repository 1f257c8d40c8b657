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
  snapshotHelper,
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
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};
/**
 * The processes running now whose parent is `parent`, with their command lines; not esbuild's
 * service, which tsx's loader starts in every process it runs (tests only).
 */
const childrenOf = async (parent: number) => {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (parentOf(Number(entry)) !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes('esbuild')) continue;
      found.push({ pid: Number(entry), cmdline });
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
};
/** Bytes this process has read from files and pipes so far (Linux). */
const bytesRead = () => Number(/^rchar: (\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

/**
 * The snapshot's processes (db/snapshots.ts SnapshotHelper, db/snapshot-child.ts): the helper,
 * started once at a low priority, copies and gzips the snapshot, so this process neither reads
 * the database's files for it nor starts a process; the verifier, which the helper starts,
 * unpacks the snapshot into a scratch folder and opens it there; the folder is gone afterwards,
 * also when the verifier was killed, and leftovers of a verifier that died with its server are
 * removed. A cancelled or failed job leaves no file and no process.
 */
describe.skipIf(onPostgres)('the snapshot helper and the verifier', () => {
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
  /** The snapshot helper's pid (it is this process's child). */
  const helperPid = async () => {
    const helper = await snapshotHelper.start();
    return helper.pid!;
  };
  /** The pid of the verifier the helper started, once it is there. */
  const verifierPid = async () => {
    const helper = await helperPid();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const [verifier] = await childrenOf(helper);
      if (verifier) return verifier.pid;
      await new Promise((r) => setTimeout(r, 5));
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

  it('counts the rows in a process at a low priority that the helper starts, then removes its folder', async () => {
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

  it('copies in the helper at a low priority: this process reads no data file and starts no process', async () => {
    const helper = await helperPid();
    // Lowered by the server as soon as it was started, and every thread of it by itself.
    expect(niceOf(helper)).toBe(VERIFIER_NICE);
    await expect
      .poll(async () => (await threadNices(helper)).every((n) => n === VERIFIER_NICE), {
        timeout: 60_000,
        interval: 20,
      })
      .toBe(true);
    const dbDir = path.join(dataDir, 'db');
    const folderBytes = Number(
      /^(\d+)/.exec(
        await new Promise<string>((resolve) => {
          const du = spawn('du', ['-sb', dbDir]);
          let out = '';
          du.stdout.on('data', (d: Buffer) => (out += d.toString()));
          du.on('close', () => resolve(out));
        }),
      )![1],
    );
    const children = (await childrenOf(process.pid)).map((c) => c.pid).sort();
    const read = bytesRead();

    const target = path.join(dataDir, 'backups', 'poruch-child.pglite.tar.gz');
    const { bytes } = await dumpOnline(embedded.client, dbDir, target);
    expect(await verifySnapshot(target, { dataDir })).toEqual({
      accounts: 0,
      services: 1234,
      vacancies: 0,
      reports: 5,
    });

    // The folder's files went through the helper, not this process (pg_control, 8 KB, is read
    // here; a few KB of messages come back).
    expect(folderBytes).toBeGreaterThan(10e6);
    expect(bytesRead() - read).toBeLessThan(256 * 1024);
    // No process was started from here: starting one holds the thread in proportion to the
    // server's memory.
    expect((await childrenOf(process.pid)).map((c) => c.pid).sort()).toEqual(children);
    expect(await helperPid()).toBe(helper);
    expect((await fs.stat(target)).size).toBe(bytes);
    expect((await fs.stat(target)).mode & 0o777).toBe(0o600);
    await fs.rm(target);
    expect(await others()).toEqual([]);
  }, 300_000);

  it('leaves no file and no process when the copy is cancelled or the helper stops', async () => {
    const dbDir = path.join(dataDir, 'db');
    const target = path.join(dataDir, 'backups', 'poruch-cut.pglite.tar.gz');
    const partial = `${target}.partial`;
    const helper = await helperPid();

    // Cancelled (the server stops) while the copy is under way: the helper stays.
    const abort = new AbortController();
    const cancelled = dumpOnline(embedded.client, dbDir, target, abort.signal);
    cancelled.catch(() => {}); // awaited below
    await expect.poll(() => existsSync(partial), { interval: 1 }).toBe(true);
    abort.abort(new Error('the server is stopping'));
    await expect(cancelled).rejects.toThrow('the server is stopping');
    expect(await others()).toEqual([]);
    expect(await helperPid()).toBe(helper);
    expect(await childrenOf(helper)).toEqual([]);

    // The helper killed (as the OS's out-of-memory killer would) during a copy.
    const killed = dumpOnline(embedded.client, dbDir, target);
    killed.catch(() => {}); // awaited below
    await expect.poll(() => existsSync(partial), { interval: 1 }).toBe(true);
    process.kill(helper, 'SIGKILL');
    await expect(killed).rejects.toThrow(/the snapshot helper stopped \(signal SIGKILL\)/);
    expect(await others()).toEqual([]);

    // The next job starts a new helper; its own errors come back as they are.
    await expect(
      snapshotHelper.run({
        job: 'copy',
        dbDir,
        file: path.join(dataDir, 'no-such-folder', 'x.partial'),
        control: '',
        startWal: '',
      }),
    ).rejects.toThrow(/ENOENT.*no-such-folder/);
    expect(await helperPid()).not.toBe(helper);
    const { bytes } = await dumpOnline(embedded.client, dbDir, target);
    expect((await fs.stat(target)).size).toBe(bytes);
    await fs.rm(target);
    expect(await others()).toEqual([]);
  }, 300_000);

  it('runs BACKUP_COMMAND in the helper, and kills it with its children when cancelled', async () => {
    const helper = await helperPid();
    const out = path.join(dataDir, 'copied');
    await snapshotHelper.run({
      job: 'command',
      command: `cp "$1" ${out}`,
      file,
      timeoutMs: 10_000,
    });
    // Buffer.equals: toEqual compares megabytes byte by byte for tens of seconds.
    expect((await fs.readFile(out)).equals(await fs.readFile(file))).toBe(true);
    await fs.rm(out);

    const abort = new AbortController();
    const running = snapshotHelper.run(
      { job: 'command', command: 'sleep 60 & sleep 61; wait # "$1"', file, timeoutMs: 120_000 },
      { signal: abort.signal },
    );
    running.catch(() => {}); // awaited below
    await expect
      .poll(async () => (await childrenOf(helper)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const [shell] = await childrenOf(helper);
    abort.abort(new Error('the server is stopping'));
    await expect(running).rejects.toThrow('the server is stopping');
    expect(existsSync(`/proc/${shell!.pid}`)).toBe(false);
    // The command's own children too (its process group).
    const group = async (pgid: number) => {
      const members: number[] = [];
      for (const entry of await fs.readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid) {
            members.push(Number(entry));
          }
        } catch {
          // Ended meanwhile.
        }
      }
      return members;
    };
    await expect.poll(() => group(shell!.pid), { timeout: 5_000 }).toEqual([]);
    expect(await childrenOf(helper)).toEqual([]);
  }, 60_000);

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
