/**
 * Small, frequent checkpoints of the embedded database (docs/operations.md § Snapshots and
 * recovery).
 *
 * PGlite runs PostgreSQL in single-user mode: there is no checkpointer process, and a checkpoint
 * happens only when one is asked for (CHECKPOINT, a clean close). Left alone, the WAL grows
 * without bound, every page changed since the start stays to be written, and the next
 * checkpoint writes them all at once while it holds PGlite (one thread: no request is served
 * meanwhile); a crash replays all that WAL at the next start. This keeps both small: it looks at
 * the WAL written since the last checkpoint every `pollMs` and checkpoints once it reaches
 * `walBytes`, so each checkpoint writes only the pages changed since the one before (a few ms).
 * The WAL is a fair measure of those pages: with full-page writes on (and data checksums, so hint
 * bits are logged too), the first change of a page after a checkpoint logs the whole page.
 */
import type { PGlite } from '@electric-sql/pglite';

export interface CheckpointsOptions {
  /** Checkpoint once this much WAL was written since the last checkpoint. Default 256 KiB. */
  walBytes?: number;
  /** How often the WAL is looked at, ms. Default 200. */
  pollMs?: number;
}

export const CHECKPOINT_WAL_BYTES = 256 * 1024;
const POLL_MS = 200;

/** The WAL written since the redo point of the last checkpoint, in bytes. */
export async function walSinceCheckpoint(client: PGlite): Promise<number> {
  const { rows } = await client.query<{ bytes: number }>(
    'SELECT (pg_current_wal_insert_lsn() - redo_lsn)::float8 AS bytes FROM pg_control_checkpoint()',
  );
  return Number(rows[0]!.bytes);
}

export class Checkpoints {
  /** Checkpoints taken. */
  count = 0;
  /** Longest time one of them held PGlite, ms (the bench resets it between its phases). */
  longestMs = 0;
  /** Their time together, ms. */
  totalMs = 0;
  private readonly walBytes: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly client: PGlite,
    options: CheckpointsOptions = {},
  ) {
    this.walBytes = options.walBytes ?? CHECKPOINT_WAL_BYTES;
    this.pollMs = options.pollMs ?? POLL_MS;
  }

  /** Looks at the WAL every `pollMs` from now on, until stop(). */
  start() {
    this.stopped = false;
    this.schedule();
  }

  private schedule() {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.check()
        .catch(() => {}) // the database is closing, or it failed: the next look tries again
        .finally(() => this.schedule());
    }, this.pollMs);
    this.timer.unref();
  }

  /**
   * Checkpoints when the WAL since the last checkpoint reached `walBytes`; resolves to whether it
   * did.
   */
  check(): Promise<boolean> {
    const run = this.running.then(async () => {
      if ((await walSinceCheckpoint(this.client)) < this.walBytes) return false;
      const started = performance.now();
      await this.client.query('CHECKPOINT');
      const ms = performance.now() - started;
      this.longestMs = Math.max(this.longestMs, ms);
      this.totalMs += ms;
      this.count++;
      return true;
    });
    this.running = run.catch(() => {});
    return run;
  }

  /** Stops looking and waits for a checkpoint in hand. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
