import type { FastifyBaseLogger } from 'fastify';
import { PeriodicJob } from '../lib/periodicJob.js';
import { runReconfirmation, type ReconfirmOptions, type ReconfirmRunResult } from './index.js';

export interface ReconfirmJobOptions extends ReconfirmOptions {
  log: FastifyBaseLogger;
  /** Pause between two runs, ms (RECONFIRM_INTERVAL_MS). */
  intervalMs: number;
  /** After a run that queued mail (the outbox worker's wake-up). */
  queued?: () => void;
  /** After a run that moved services to `overdue` or `lapsed` (the map's invalidation). */
  changed?: () => Promise<void>;
}

/**
 * The periodic re-confirmation run in this process: `runReconfirmation` every `intervalMs`.
 * Several processes may run it on one database (each mail is claimed once).
 */
export class ReconfirmJob extends PeriodicJob {
  constructor(private readonly options: ReconfirmJobOptions) {
    super({ ...options, name: 're-confirmation', run: () => this.runOnce() });
  }

  /** One run now (tests, and the loop). */
  async runOnce(): Promise<ReconfirmRunResult> {
    const o = this.options;
    const result = await runReconfirmation(o);
    if (result.mailed + result.reminded > 0) o.queued?.();
    if (result.overdue + result.lapsed > 0) await o.changed?.();
    if (Object.values(result).some((n) => n > 0)) o.log.info(result, 're-confirmation run');
    return result;
  }
}
