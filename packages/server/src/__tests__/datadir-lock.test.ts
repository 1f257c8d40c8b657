import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/index.js';
import { DataDirBusyError, lockPath } from '../db/lock.js';
import { accounts, services } from '../db/schema.js';
import { adminSocketPath } from '../lib/admin-socket.js';
import { REPO_ROOT } from '../paths.js';
import { runCli, startChildServer, type ChildServer } from './helpers/child.js';
import { TestClient } from './helpers/client.js';

/**
 * The embedded database is one process's: every command that opens DATA_DIR takes its lock
 * (db/lock.ts, through db/embedded.ts), and `pnpm admin:create` asks a running server instead.
 * PGlite only: with DATABASE_URL nothing opens a folder.
 */
const onPostgres = process.env.PORUCH_TEST_DB === 'postgres';

const PASSWORD_LINE = /Password \(shown once, store it now\): (\S+)/;

/** The start time /proc gives a process (field 22), as the lock records it. */
async function startTime(pid: number) {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** A PID that was just used and is gone. */
async function deadPid() {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

async function login(url: string, email: string, password: string) {
  const client = new TestClient(url);
  await client.init();
  return (await client.post('/api/v1/auth/login', { email, password })).status;
}

describe.skipIf(onPostgres)('DATA_DIR lock (PGlite on disk)', () => {
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: undefined });

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-lock-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  describe('with the server running', () => {
    let server: ChildServer;
    beforeAll(async () => {
      server = await startChildServer({ DATA_DIR: dataDir });
    }, 90_000);
    afterAll(async () => {
      await server?.kill('SIGTERM');
    });

    it('admin:create goes through the server, and the administrator logs in at once', async () => {
      const created = await runCli(
        'admin-create',
        ['--email', 'Live@Example.org', '--super'],
        env(),
      );
      expect(created.code, created.out).toBe(0);
      expect(created.out).toContain(
        `Administrator live@example.org (super) created by the running server (process ${server.pid}).`,
      );
      const password = PASSWORD_LINE.exec(created.out)?.[1];
      expect(password).toMatch(/^[A-Za-z2-9]{20}$/);
      expect(await login(server.url, 'live@example.org', password!)).toBe(200);

      const again = await runCli('admin-create', ['--email', 'live@example.org'], env());
      expect(again.code).toBe(1);
      expect(again.out).toContain('already exists');
      expect(again.out).not.toMatch(PASSWORD_LINE);
    }, 60_000);

    it('the socket is reachable by the owner only', async () => {
      const socket = adminSocketPath(dataDir);
      expect((await fs.stat(path.dirname(socket))).mode & 0o777).toBe(0o700);
      expect((await fs.stat(socket)).mode & 0o777).toBe(0o600);
    });

    it('a second server on the same DATA_DIR refuses to start, naming the running one', async () => {
      const second = await startChildServer({ DATA_DIR: dataDir }).then(
        () => 'started',
        (error: Error) => error.message,
      );
      expect(second).toMatch(/^server exited \(1\)/);
      expect(second).toContain(`in use by a server (process ${server.pid}`);
      expect(second).toContain('stop the server first');
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }, 90_000);

    it('seed:synthetic refuses and changes nothing', async () => {
      const seeded = await runCli('seed-synthetic', ['--services', '3', '--vacancies', '0'], env());
      expect(seeded.code).toBe(1);
      expect(seeded.out).toContain(`in use by a server (process ${server.pid}`);
      expect(seeded.out).not.toContain('Generating');
      const list = await fetch(`${server.url}/api/v1/services?pageSize=10`);
      expect(list.status).toBe(200);
      expect((await list.json()).items).toEqual([]);
    }, 60_000);
  });

  it('the stopped server left neither lock nor socket, and nothing was seeded', async () => {
    await expect(fs.stat(lockPath(path.join(dataDir, 'db')))).rejects.toThrow(/ENOENT/);
    await expect(fs.stat(adminSocketPath(dataDir))).rejects.toThrow(/ENOENT/);
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    try {
      expect(await database.db.select().from(services)).toEqual([]);
      expect((await database.db.select().from(accounts)).map((a) => a.email)).toEqual([
        'live@example.org',
      ]);
    } finally {
      await database.close();
    }
  });

  it('a lock left by a killed server is recovered; a live holder is not', async () => {
    const server = await startChildServer({ DATA_DIR: dataDir });
    await server.kill('SIGKILL');
    const lock = lockPath(path.join(dataDir, 'db'));
    expect(JSON.parse(await fs.readFile(lock, 'utf8')).pid).toBe(server.pid);
    const created = await runCli('admin-create', ['--email', 'after-crash@example.org'], env());
    expect(created.code, created.out).toBe(0);
    expect(created.out).toContain('Administrator after-crash@example.org created.');
    await expect(fs.stat(lock)).rejects.toThrow(/ENOENT/);

    // A lock naming a PID that is gone.
    const write = (pid: number, start?: string) =>
      fs.writeFile(
        lock,
        JSON.stringify({ pid, owner: 'server', since: '2026-01-01T00:00:00Z', start, nonce: 'x' }),
      );
    await write(await deadPid());
    const dead = await runCli('admin-create', ['--email', 'dead-pid@example.org'], env());
    expect(dead.code, dead.out).toBe(0);

    // A lock naming a PID another, unrelated process has now (another start time): stale too.
    const sleeper: ChildProcess = spawn('sleep', ['60']);
    try {
      await write(sleeper.pid!, '1');
      const reused = await runCli('admin-create', ['--email', 'reused-pid@example.org'], env());
      expect(reused.code, reused.out).toBe(0);
      // The same PID with its real start time is a live holder: refused, folder untouched.
      await write(sleeper.pid!, await startTime(sleeper.pid!));
      const busy = await runCli('admin-create', ['--email', 'busy@example.org'], env());
      expect(busy.code).toBe(1);
      expect(busy.out).toContain(`in use by a server (process ${sleeper.pid}`);
      expect(busy.out).not.toMatch(PASSWORD_LINE);
      await fs.rm(lock);
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 120_000);

  it('one process holds a folder: a second open in the same process is refused too', async () => {
    const first = await openDatabase({ dataDir: path.join(dataDir, 'db'), owner: 'test' });
    try {
      const second = await openDatabase({ dataDir: path.join(dataDir, 'db') }).catch(
        (e: unknown) => e,
      );
      expect(second).toBeInstanceOf(DataDirBusyError);
      expect((second as Error).message).toContain(`in use by a test (process ${process.pid}`);
    } finally {
      await first.close();
    }
  });

  it('of openers starting at the same instant exactly one gets the folder, stale lock or not', async () => {
    const dbDir = path.join(dataDir, 'race', 'db');
    await fs.mkdir(path.dirname(dbDir), { recursive: true });
    const racer = path.join(REPO_ROOT, 'packages/server/src/__tests__/helpers/lockRacer.ts');
    for (const stale of [false, true, true, false, true]) {
      if (stale) {
        await fs.writeFile(
          lockPath(dbDir),
          JSON.stringify({ pid: await deadPid(), owner: 'server', since: 'x', nonce: 'x' }),
        );
      }
      const racers = Array.from({ length: 6 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', racer, dbDir], {
          cwd: REPO_ROOT,
        });
        let out = '';
        const said = (word: RegExp) =>
          new Promise<string>((resolve) => {
            const look = () => {
              const found = word.exec(out)?.[0];
              if (found) resolve(found);
            };
            child.stdout.on('data', look);
            look();
          });
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        const closed = new Promise<string>((resolve) =>
          child.on('close', (code, signal) => resolve(`exit ${code ?? signal}: ${out}`)),
        );
        // What it answers, or how it ended without an answer.
        const answer = () => Promise.race([said(/^(got|busy)$/m), closed]);
        return { child, ready: Promise.race([said(/^ready$/m), closed]), answer, closed };
      });
      // Every contender loaded, then one start instant for all, a moment ahead.
      await Promise.all(racers.map((r) => r.ready));
      const startAt = Date.now() + 200;
      for (const r of racers) r.child.stdin.write(`${startAt}\n`);
      // The holder keeps the lock until every contender has answered: none comes late.
      const outputs = await Promise.all(racers.map((r) => r.answer()));
      for (const r of racers) r.child.stdin.end();
      const ends = await Promise.all(racers.map((r) => r.closed));
      expect(ends.filter((e) => !e.startsWith('exit 0:'))).toEqual([]);
      expect(outputs.sort(), `stale lock: ${stale}`).toEqual([
        'busy',
        'busy',
        'busy',
        'busy',
        'busy',
        'got',
      ]);
      await expect(fs.stat(lockPath(dbDir))).rejects.toThrow(/ENOENT/);
    }
  }, 120_000);
});
