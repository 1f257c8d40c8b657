import type { FastifyBaseLogger } from 'fastify';
import { PeriodicJob } from '../lib/periodicJob.js';
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
export class DigestJob extends PeriodicJob {
  constructor(private readonly options: DigestJobOptions) {
    super({ ...options, name: 'alert digest', run: () => this.runOnce() });
  }

  /** One run now (tests, and the loop). */
  async runOnce(): Promise<DigestRunResult> {
    const result = await runDigests({
      onBatch: (batch) => this.options.log.debug(batch, 'alert digest batch committed'),
      ...this.options,
    });
    if (result.mails > 0) {
      this.options.log.info(result, 'alert digests queued');
      this.options.queued?.();
    }
    return result;
  }
}
