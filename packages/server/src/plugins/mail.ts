import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../env.js';
import { settingOrCreate } from '../lib/settings.js';
import { Outbox, messageIdDomain } from '../mail/outbox.js';
import { OutboxWorker } from '../mail/OutboxWorker.js';
import { loadVapidKeys, type VapidKeys } from '../mail/push.js';
import { FileTransport, SmtpTransport } from '../mail/transports.js';

export interface MailService {
  /** Writes mails and pushes into the outbox, inside the caller's transaction. */
  outbox: Outbox;
  /** The delivering worker, unless MAIL_WORKER is false. */
  worker: OutboxWorker | null;
  /** HMAC secret of unsubscribe links. */
  unsubscribeSecret: string;
  vapid: VapidKeys;
  /** Public URL of the site, for links in mails. */
  publicUrl: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS: pushes may go to internal addresses. */
  allowPrivatePush: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailService;
  }
}

/**
 * Mail and push: the outbox that routes write into, and the worker that delivers it in this
 * process. nodemailer over SMTP when SMTP_URL is set; otherwise each mail becomes an .eml file in
 * DATA_DIR/mail and its path is logged, so development needs no mail server. docs/mail.md.
 */
export const mailPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const unsubscribeSecret =
    env.UNSUBSCRIBE_SECRET ??
    (await settingOrCreate(app.db, 'unsubscribe_secret', () =>
      randomBytes(32).toString('base64url'),
    ));
  const vapid = await loadVapidKeys(app.db, env);
  const outbox = new Outbox(messageIdDomain(env.MAIL_FROM));

  let worker: OutboxWorker | null = null;
  if (env.MAIL_WORKER) {
    const mailDir = path.join(env.DATA_DIR, 'mail');
    let transport: SmtpTransport | FileTransport;
    if (env.SMTP_URL) {
      transport = new SmtpTransport(env.SMTP_URL);
    } else {
      transport = new FileTransport(mailDir, (file) =>
        app.log.info({ file }, 'mail written to file'),
      );
      // Owner-only before the first mail, also when an older version made it readable.
      await transport.prepare();
    }
    worker = new OutboxWorker({
      db: app.db,
      log: app.log,
      transport,
      vapid,
      from: env.MAIL_FROM,
      publicUrl: env.PUBLIC_URL,
      unsubscribeSecret,
      ratePerMinute: env.MAIL_RATE_PER_MINUTE,
      pollMs: env.MAIL_POLL_MS,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
      retryBaseMs: env.MAIL_RETRY_BASE_MS,
      leaseSeconds: env.MAIL_LEASE_SECONDS,
      exclusive: app.database.kind === 'pglite',
      allowPrivatePush: env.PUSH_ALLOW_PRIVATE_ENDPOINTS,
    });
  }
  app.decorate('mail', {
    outbox,
    worker,
    unsubscribeSecret,
    vapid,
    publicUrl: env.PUBLIC_URL,
    allowPrivatePush: env.PUSH_ALLOW_PRIVATE_ENDPOINTS,
  });
  app.addHook('onReady', async () => worker?.start());
  // onClose hooks run in reverse order: the worker stops before the database closes.
  app.addHook('onClose', async () => worker?.stop());
});
