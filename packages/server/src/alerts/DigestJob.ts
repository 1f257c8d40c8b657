import type { FastifyBaseLogger } from 'fastify';
import { runDigests, type DigestOptions, type DigestRunResult } from './digest.js';

export interface DigestJobOptions extends DigestOptions {
  log: FastifyBaseLogger;
  /** Pause between two runs, ms (ALERT_DIGEST_INTERVAL_MS). */
  intervalMs: number;
  /** Called after each run that queued mail (the outbox worker's wake-up). */
  queued?: () => void;
}

/**
 * The periodic alert digest run in this process: `runDigests` every `intervalMs`, each run
 * finishing before the next starts. Several processes may run it on one database (digest.ts).
 */
export class DigestJob {
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(private readonly o: DigestJobOptions) {}

  start() {
    this.loopDone ??= this.loop();
  }

  /** Finishes the run in hand, then stops. */
  async stop() {
    this.stopping = true;
    this.wakeUp?.();
    await this.loopDone;
  }

  /** One run now (tests, and the loop). */
  async runOnce(): Promise<DigestRunResult> {
    const result = await runDigests(this.o);
    if (result.mails > 0) {
      this.o.log.info(result, 'alert digests queued');
      this.o.queued?.();
    }
    return result;
  }

  private async loop() {
    while (!this.stopping) {
      try {
        await this.runOnce();
      } catch (err) {
        this.o.log.error({ err }, 'alert digest run failed; trying again');
      }
      if (this.stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.o.intervalMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wakeUp = done;
      });
      this.wakeUp = null;
    }
  }
}
