import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';
import { eventually } from './helpers/scale.js';
import {
  postgresBinDir,
  removeStaleClusters,
  startPostgresCluster,
  type PostgresCluster,
} from './helpers/postgresCluster.js';

const binDir = postgresBinDir();

async function query<T>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Whether something accepts a PostgreSQL connection at `url`. */
const answers = (url: string) =>
  query(url, 'SELECT 1').then(
    () => true,
    () => false,
  );

/**
 * A separate Node process that starts a cluster, prints it as JSON and waits: the run that is
 * killed (SIGTERM: it cleans up; SIGKILL: it cannot, the next start does).
 */
async function clusterInChild() {
  const module = pathToFileURL(path.join(import.meta.dirname, 'helpers/postgresCluster.ts'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { startPostgresCluster } = await import(${JSON.stringify(module.href)});
       const c = await startPostgresCluster({ standby: true });
       console.log(JSON.stringify(c));
       setInterval(() => {}, 60_000);`,
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let out = '';
  const cluster = await new Promise<Omit<PostgresCluster, 'stop'>>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}): ${out}`)));
  });
  return { child, exited, cluster };
}

/**
 * The tests' and benchmarks' own PostgreSQL (helpers/postgresCluster.ts): a primary and a hot
 * standby from the installed binaries in a temporary folder, on free loopback ports, never the
 * machine's clusters (5432/5433); removed when stopped, when the process is ended, and after a
 * crash by the next start. Runs in the `server` project (server-pg uses the same code).
 */
describe.runIf(binDir && process.env.PORUCH_TEST_DB !== 'postgres')(
  'throwaway PostgreSQL cluster',
  () => {
    it('starts a writable primary and a standby in recovery that replays its writes; stop removes it', async () => {
      const cluster = await startPostgresCluster({ standby: true });
      let stopped = false;
      try {
        const primary = new URL(cluster.url);
        const standby = new URL(cluster.readUrl!);
        expect(primary.hostname).toBe('127.0.0.1');
        expect(standby.hostname).toBe('127.0.0.1');
        for (const port of [primary.port, standby.port]) {
          expect(['', '5432', '5433']).not.toContain(port);
        }
        expect(primary.port).not.toBe(standby.port);
        // Inside the temporary folder, not the machine's data directories.
        expect(path.dirname(cluster.dir)).toBe(os.tmpdir());
        expect(fs.existsSync(path.join(cluster.dir, 'primary', 'PG_VERSION'))).toBe(true);
        // Root cannot run PostgreSQL: the data belongs to an unprivileged user.
        const owner = fs.statSync(path.join(cluster.dir, 'primary')).uid;
        if (process.getuid?.() === 0) expect(owner).not.toBe(0);
        else expect(owner).toBe(process.getuid?.());

        const [p] = await query<{ r: boolean }>(cluster.url, 'SELECT pg_is_in_recovery() AS r');
        expect(p!.r).toBe(false);
        const [s] = await query<{ r: boolean }>(
          cluster.readUrl!,
          'SELECT pg_is_in_recovery() AS r',
        );
        expect(s!.r).toBe(true);
        const [enc] = await query<{ e: string }>(
          cluster.url,
          "SELECT pg_encoding_to_char(encoding) AS e FROM pg_database WHERE datname = 'postgres'",
        );
        expect(enc!.e).toBe('UTF8');

        await query(cluster.url, 'CREATE TABLE t (v text)');
        await query(cluster.url, "INSERT INTO t VALUES ('Київ')");
        await eventually(async () => {
          const rows = await query<{ v: string }>(cluster.readUrl!, 'SELECT upper(v) AS v FROM t');
          expect(rows).toEqual([{ v: 'КИЇВ' }]);
        }, 10_000);
        await expect(query(cluster.readUrl!, "INSERT INTO t VALUES ('x')")).rejects.toThrow(
          /read-only/,
        );
        // The password is needed: the cluster is not open to every local user.
        const noPassword = new URL(cluster.url);
        noPassword.password = '';
        expect(await answers(noPassword.toString())).toBe(false);

        await cluster.stop();
        stopped = true;
        expect(fs.existsSync(cluster.dir)).toBe(false);
        expect(await answers(cluster.url)).toBe(false);
        expect(await answers(cluster.readUrl!)).toBe(false);
      } finally {
        if (!stopped) await cluster.stop();
      }
    });

    it('a run ended by SIGTERM stops its servers and removes the folder', async () => {
      const { child, exited, cluster } = await clusterInChild();
      expect(await answers(cluster.url)).toBe(true);
      expect(fs.existsSync(cluster.dir)).toBe(true);
      child.kill('SIGTERM');
      await exited;
      expect(fs.existsSync(cluster.dir)).toBe(false);
      expect(await answers(cluster.url)).toBe(false);
      expect(await answers(cluster.readUrl!)).toBe(false);
    });

    it("a run killed outright leaves its cluster; the next start stops and removes it, not a live run's", async () => {
      const [killed, live] = await Promise.all([clusterInChild(), clusterInChild()]);
      try {
        killed.child.kill('SIGKILL');
        await killed.exited;
        // Nothing could clean up: the servers still answer.
        expect(fs.existsSync(killed.cluster.dir)).toBe(true);
        expect(await answers(killed.cluster.readUrl!)).toBe(true);

        removeStaleClusters();
        expect(fs.existsSync(killed.cluster.dir)).toBe(false);
        await eventually(async () => {
          expect(await answers(killed.cluster.url)).toBe(false);
          expect(await answers(killed.cluster.readUrl!)).toBe(false);
        }, 10_000);
        // The cluster of a run still going (a parallel test run) is kept.
        expect(fs.existsSync(live.cluster.dir)).toBe(true);
        expect(await answers(live.cluster.url)).toBe(true);
        expect(await answers(live.cluster.readUrl!)).toBe(true);
      } finally {
        killed.child.kill('SIGKILL');
        live.child.kill('SIGTERM');
        await live.exited;
      }
      expect(fs.existsSync(live.cluster.dir)).toBe(false);
    });
  },
);
