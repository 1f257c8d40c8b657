import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../env.js';
import { invalidateMap } from '../map/index.js';
import { ReconfirmJob } from '../reconfirm/ReconfirmJob.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The re-confirmation job of this process, unless RECONFIRM_JOB is false. */
    reconfirmJob: ReconfirmJob | null;
    /** The clock of time-dependent rules (buildApp's `now`; tests move it). */
    now: () => Date;
  }
}

/**
 * Yearly re-confirmation: the periodic run that mails owners and moves unconfirmed services to
 * `overdue` and `lapsed` (src/reconfirm/). Registered after the mail plugin: it stops before the
 * outbox worker and the database.
 */
export const reconfirmPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const job = env.RECONFIRM_JOB
    ? new ReconfirmJob({
        db: app.db,
        log: app.log,
        outbox: app.mail.outbox,
        publicUrl: env.PUBLIC_URL,
        secret: app.mail.unsubscribeSecret,
        intervalMs: env.RECONFIRM_INTERVAL_MS,
        now: () => app.now(),
        queued: () => app.mail.worker?.wake(),
        changed: () => invalidateMap(app),
      })
    : null;
  app.decorate('reconfirmJob', job);
  // Its first run starts once the server listens: the start-up's own queries (onReady hooks)
  // never queue behind it on the embedded database.
  app.addHook('onListen', async () => job?.start());
  app.addHook('onClose', async () => job?.stop());
});
