import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Checkpoints } from '../db/checkpoints.js';
import type { Embedded } from '../db/embedded.js';
import {
  goodSnapshots,
  SnapshotFailure,
  removeVerifyLeftovers,
  snapshotHelper,
  takeSnapshot,
  type SnapshotResult,
} from '../db/snapshots.js';
import type { Env } from '../env.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Online snapshots of the embedded database on disk; null on PostgreSQL or in memory. */
    snapshots: Snapshots | null;
    /** The checkpointer of the embedded database on disk; null on PostgreSQL or in memory. */
    checkpoints: Checkpoints | null;
  }
}

export type SnapshotStage = 'snapshot' | 'verify' | 'command';

interface SnapshotsOptions {
  client: Embedded['client'];
  dataDir: string;
  env: Pick<
    Env,
    'BACKUP_INTERVAL_MINUTES' | 'BACKUP_KEEP' | 'BACKUP_COMMAND' | 'BACKUP_COMMAND_TIMEOUT_SECONDS'
  >;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** With no snapshot yet, the first one is taken this long after the start (or one interval). */
const FIRST_SNAPSHOT_MS = 10 * 60_000;

/**
 * The snapshots of this server (db/snapshots.ts): every BACKUP_INTERVAL_MINUTES (counted from the
 * newest good snapshot, so restarts do not postpone them), and on demand (`pnpm backup` through
 * the admin socket). One at a time: a request during a run waits for it, then takes its own.
 */
export class Snapshots {
  /** When the newest good snapshot was taken (from DATA_DIR/backups at start). */
  lastGood: Date | null = null;
  readonly failures: Record<SnapshotStage, number> = { snapshot: 0, verify: 0, command: 0 };
  successes = 0;
  /** Longest time the last snapshot held the database, ms. */
  lastPauseMs: number | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly o: SnapshotsOptions) {}

  private get intervalMs() {
    return this.o.env.BACKUP_INTERVAL_MINUTES * 60_000;
  }

  async start() {
    // Now, before the server serves and while its memory is small (see SnapshotHelper).
    await snapshotHelper.start();
    await removeVerifyLeftovers(this.o.dataDir);
    const [latest] = await goodSnapshots(this.o.dataDir);
    this.lastGood = latest ? new Date(latest.createdAt) : null;
    if (this.intervalMs <= 0) return;
    const due = this.lastGood
      ? this.lastGood.getTime() + this.intervalMs - this.o.now().getTime()
      : Math.min(this.intervalMs, FIRST_SNAPSHOT_MS);
    this.schedule(Math.max(0, due));
  }

  private schedule(ms: number) {
    if (this.stopping.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.take()
        .catch(() => {}) // logged and counted in take()
        .finally(() => this.schedule(this.intervalMs));
    }, ms);
  }

  /** Takes a snapshot now (after the one in hand, if any); rejects when it fails. */
  take(): Promise<SnapshotResult> {
    const run = this.chain.then(() => this.once());
    this.chain = run.catch(() => {});
    return run;
  }

  private async once(): Promise<SnapshotResult> {
    const { env, log } = this.o;
    let result: SnapshotResult;
    try {
      result = await takeSnapshot(this.o.client, {
        dataDir: this.o.dataDir,
        keep: env.BACKUP_KEEP,
        now: this.o.now,
        signal: this.stopping.signal,
      });
    } catch (err) {
      if (this.stopping.signal.aborted) {
        log.info('snapshot cancelled: the server is stopping');
        throw err;
      }
      this.failures[err instanceof SnapshotFailure ? err.stage : 'snapshot']++;
      log.error({ err }, 'snapshot failed');
      throw err;
    }
    this.successes++;
    this.lastGood = result.createdAt;
    this.lastPauseMs = result.pauseMs;
    log.info(
      {
        file: path.basename(result.file),
        bytes: result.bytes,
        counts: result.counts,
        pauseMs: Math.round(result.pauseMs),
        ms: result.ms,
      },
      'snapshot taken and verified',
    );
    if (env.BACKUP_COMMAND) {
      try {
        // Run by the snapshot helper: the server starts no process while it serves.
        await snapshotHelper.run(
          {
            job: 'command',
            command: env.BACKUP_COMMAND,
            file: result.file,
            timeoutMs: env.BACKUP_COMMAND_TIMEOUT_SECONDS * 1000,
          },
          { signal: this.stopping.signal },
        );
        log.info({ file: path.basename(result.file) }, 'BACKUP_COMMAND copied the snapshot');
      } catch (err) {
        this.failures.command++;
        log.error({ err, file: result.file }, 'BACKUP_COMMAND failed');
      }
    }
    return result;
  }

  /** Stops the schedule and cancels the run in hand (its temporary file is removed). */
  async stop() {
    this.stopping.abort(new Error('the server is stopping'));
    if (this.timer) clearTimeout(this.timer);
    await this.chain;
  }
}

/**
 * Snapshots of the embedded database on disk (docs/operations.md § Snapshots and recovery), and
 * its checkpointer (db/checkpoints.ts), which runs also with snapshots off. On PostgreSQL (or
 * PGlite in memory) there are neither: `app.snapshots` and `app.checkpoints` are null.
 */
export const snapshotsPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const embedded = app.database.embedded;
  const checkpoints = embedded ? new Checkpoints(embedded.client) : null;
  const snapshots = embedded
    ? new Snapshots({
        client: embedded.client,
        dataDir: path.dirname(embedded.dbDir),
        env,
        log: app.log,
        now: () => app.now(),
      })
    : null;
  app.decorate('snapshots', snapshots);
  app.decorate('checkpoints', checkpoints);
  app.addHook('onReady', async () => {
    checkpoints?.start();
    await snapshots?.start();
  });
  app.addHook('onClose', async () => {
    await snapshots?.stop();
    await checkpoints?.stop();
  });
});
