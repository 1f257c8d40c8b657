import type { FastifyBaseLogger } from 'fastify';
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
 * The periodic re-confirmation run in this process: `runReconfirmation` every `intervalMs`, each
 * run finishing before the next starts. Several processes may run it on one database.
 */
export class ReconfirmJob {
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(private readonly o: ReconfirmJobOptions) {}

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
  async runOnce(): Promise<ReconfirmRunResult> {
    const result = await runReconfirmation(this.o);
    if (result.mailed + result.reminded > 0) this.o.queued?.();
    if (result.overdue + result.lapsed > 0) await this.o.changed?.();
    if (Object.values(result).some((n) => n > 0)) this.o.log.info(result, 're-confirmation run');
    return result;
  }

  private async loop() {
    while (!this.stopping) {
      try {
        await this.runOnce();
      } catch (err) {
        this.o.log.error({ err }, 're-confirmation run failed; trying again');
      }
      if (this.stopping) break;
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        this.timer = setTimeout(resolve, this.o.intervalMs);
      });
      if (this.timer) clearTimeout(this.timer);
      this.wakeUp = null;
    }
  }
}
