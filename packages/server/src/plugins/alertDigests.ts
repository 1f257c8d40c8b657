import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DigestJob } from '../alerts/DigestJob.js';
import type { Env } from '../env.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The alert digest job of this process, unless ALERT_DIGESTS is false. */
    alertDigests: DigestJob | null;
  }
}

/**
 * Alert digests: the periodic run that mails each confirmed alert what is new in its search
 * (src/alerts/digest.ts, docs/mail.md § Alert digests). Registered after the mail plugin: it
 * stops before the outbox worker and the database.
 */
export const alertDigestsPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const job = env.ALERT_DIGESTS
    ? new DigestJob({
        db: app.db,
        log: app.log,
        outbox: app.mail.outbox,
        publicUrl: env.PUBLIC_URL,
        secret: app.mail.unsubscribeSecret,
        intervalMs: env.ALERT_DIGEST_INTERVAL_MS,
        batchSize: env.ALERT_DIGEST_BATCH,
        now: () => app.now(),
        queued: () => app.mail.worker?.wake(),
      })
    : null;
  app.decorate('alertDigests', job);
  // Its first run starts once the server listens: the start-up's own queries (onReady hooks)
  // never queue behind it on the embedded database.
  app.addHook('onListen', async () => job?.start());
  app.addHook('onClose', async () => job?.stop());
});
