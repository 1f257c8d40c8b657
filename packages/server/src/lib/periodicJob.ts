import type { FastifyBaseLogger } from 'fastify';

/**
 * A turn of the event loop, between two slices of a job's work: the requests that came in
 * meanwhile run (and on the embedded database, their queries) before the next slice.
 */
export const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A job this process runs every `intervalMs` (the alert digests, the yearly re-confirmation):
 * each run finishes before the next starts; a failed run is logged and the loop goes on; `stop()`
 * lets the run in hand finish. Several processes may run the same job on one database: the runs
 * claim their work in the database.
 */
export class PeriodicJob {
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly o: {
      log: FastifyBaseLogger;
      /** Pause between two runs, ms. */
      intervalMs: number;
      /** Named in the log line of a failed run. */
      name: string;
      run: () => Promise<unknown>;
    },
  ) {}

  start() {
    this.loopDone ??= this.loop();
  }

  /** Finishes the run in hand, then stops. */
  async stop() {
    this.stopping = true;
    this.wakeUp?.();
    await this.loopDone;
  }

  private async loop() {
    while (!this.stopping) {
      try {
        await this.o.run();
      } catch (err) {
        this.o.log.error({ err }, `${this.o.name} run failed; trying again`);
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
