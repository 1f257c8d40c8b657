import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { LocaleCode } from '@poruch/core';
import type { Db } from '../db/index.js';
import { accounts, campaigns, mailOutbox, pushSubscriptions } from '../db/schema.js';
import { alertPushTargets, dropAlertPush } from '../alerts/push.js';
import { ERASED_RECIPIENT_TEMPLATES, PUSH_PREFIX, SENSITIVE_TEMPLATES } from './outbox.js';
import { sendPush, type PushOutcome, type VapidKeys } from './push.js';
import {
  TEMPLATES,
  renderMail,
  renderPush,
  type PushName,
  type RenderedMail,
  type TemplateName,
} from './templates.js';
import type { DeliveryOutcome, MailTransport } from './transports.js';
import { unsubscribeToken } from './unsubscribe.js';

export interface OutboxWorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  transport: MailTransport;
  vapid: VapidKeys;
  /** Sender of every mail. */
  from: string;
  /** Public URL of the site, for unsubscribe links. */
  publicUrl: string;
  unsubscribeSecret: string;
  /** Mails handed to the transport per minute. */
  ratePerMinute: number;
  /** Pause between looks at an empty queue, ms. */
  pollMs: number;
  maxAttempts: number;
  /** First retry delay, ms; doubled per attempt, capped at 6 hours. */
  retryBaseMs: number;
  /** How long a claimed row stays reserved, seconds. */
  leaseSeconds: number;
  /**
   * The database runs in this process and only this process opens it (PGlite): rows a crash left
   * in `sending` are due again at once instead of after their lease, and the `sent` commit waits
   * for its WAL flush (a crash of ours is a crash of the database). Defaults to false.
   */
  exclusive?: boolean;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS: pushes may go to private or loopback addresses. */
  allowPrivatePush?: boolean;
}

/** A claimed outbox row. */
interface Claimed {
  id: string;
  message_id: string;
  recipient: string;
  template: string;
  locale: LocaleCode;
  payload: Record<string, unknown>;
  attempts: number;
  campaign_id: string | null;
}

const BATCH = 50;
const PUSH_BATCH = 20;
const MAX_BACKOFF_MS = 6 * 60 * 60_000;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The list headers a mail's payload carries (alert digests: RFC 8058 one-click unsubscribe). */
const LIST_HEADERS = ['List-Unsubscribe', 'List-Unsubscribe-Post', 'Precedence'];
function listHeaders(payload: Record<string, unknown>): Record<string, string> {
  const given = payload.headers as Record<string, unknown> | undefined;
  if (!given || typeof given !== 'object') return {};
  return Object.fromEntries(
    LIST_HEADERS.filter((h) => typeof given[h] === 'string').map((h) => [h, given[h] as string]),
  );
}

/**
 * Delivers the outbox: claims due rows (a lease with `FOR UPDATE SKIP LOCKED`, so several
 * processes on one PostgreSQL share the work), sends them at most `ratePerMinute` a minute,
 * retries with exponential back-off and records permanent failures. The exactly-once argument is
 * in docs/mail.md.
 */
export class OutboxWorker {
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private tokens: number;
  private readonly capacity: number;
  private lastRefill = Date.now();
  /** The bare address of the sender, for MAIL FROM. */
  private readonly envelopeFrom: string;
  private readonly campaignCache = new Map<
    string,
    { subject: string; content: string; sendToSelf: boolean } | null
  >();

  constructor(private readonly o: OutboxWorkerOptions) {
    // At most one second's worth of mail in a burst.
    this.capacity = Math.max(1, Math.min(BATCH, Math.floor(o.ratePerMinute / 60)));
    this.tokens = this.capacity;
    const parsed = addressparser(o.from, { flatten: true });
    this.envelopeFrom = (Array.isArray(parsed) ? parsed[0]?.address : undefined) ?? o.from;
  }

  start() {
    this.loopDone ??= this.loop();
  }

  /** Looks at the queue now instead of at the next poll. */
  wake() {
    this.wakeUp?.();
  }

  /** Finishes the batch in hand, then stops. */
  async stop() {
    this.stopping = true;
    this.wake();
    await this.loopDone;
    this.o.transport.close();
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private refill() {
    const now = Date.now();
    this.tokens = Math.min(
      this.capacity,
      this.tokens + ((now - this.lastRefill) * this.o.ratePerMinute) / 60_000,
    );
    this.lastRefill = now;
  }

  private async loop() {
    if (this.o.exclusive) {
      // No other process can be sending them: a row in `sending` was left by a crash before its
      // end-of-data mark was written (docs/mail.md), so sending it again duplicates nothing.
      await this.o.db
        .update(mailOutbox)
        .set({ nextAttemptAt: new Date() })
        .where(
          or(
            eq(mailOutbox.status, 'sending'),
            and(eq(mailOutbox.status, 'sent'), isNull(mailOutbox.sentAt)),
          ),
        );
    }
    let lastRecovery = 0;
    while (!this.stopping) {
      let wait = this.o.pollMs;
      try {
        if (Date.now() - lastRecovery > 30_000) {
          lastRecovery = Date.now();
          await this.recoverUnconfirmed();
        }
        const mail = await this.mailBatch();
        const pushes = await this.pushBatch();
        if (mail.rateLimited) {
          wait = Math.ceil(((1 - this.tokens) * 60_000) / this.o.ratePerMinute);
        } else if (mail.claimed > 0 || pushes > 0) {
          wait = 0;
        }
      } catch (err) {
        this.o.log.error({ err }, 'mail outbox worker failed; trying again');
      }
      if (!this.stopping && wait > 0) await this.sleep(wait);
    }
  }

  /**
   * A `sent` row without `sent_at` whose lease ended: its process died between committing it and
   * learning the server's answer, so the end-of-data mark may or may not have gone out. It is not
   * sent again (never twice); it is marked, so an administrator can see the mail may be lost.
   */
  private async recoverUnconfirmed() {
    const marked = await this.o.db
      .update(mailOutbox)
      .set({ lastError: 'unconfirmed: the process stopped before the server answered' })
      .where(
        and(
          eq(mailOutbox.status, 'sent'),
          isNull(mailOutbox.sentAt),
          isNull(mailOutbox.lastError),
          lte(mailOutbox.nextAttemptAt, new Date()),
        ),
      )
      .returning({ id: mailOutbox.id });
    if (marked.length) {
      this.o.log.warn({ outboxIds: marked.map((m) => m.id) }, 'mail unconfirmed after a crash');
    }
  }

  private async claim(limit: number, push: boolean): Promise<Claimed[]> {
    const kind = push
      ? sql`template LIKE ${PUSH_PREFIX + '%'}`
      : sql`template NOT LIKE ${PUSH_PREFIX + '%'}`;
    const result = await this.o.db.execute(sql`
      UPDATE mail_outbox o
      SET status = 'sending', attempts = o.attempts + 1,
          next_attempt_at = now() + (${this.o.leaseSeconds}::int * interval '1 second')
      FROM (
        SELECT id FROM mail_outbox
        WHERE status IN ('queued', 'sending') AND next_attempt_at <= now() AND ${kind}
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE o.id = due.id
      RETURNING o.id, o.message_id, o.recipient, o.template, o.locale, o.payload, o.attempts,
                o.campaign_id`);
    return rowsOf<Claimed>(result).map((r) => ({
      ...r,
      attempts: Number(r.attempts),
      payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    }));
  }

  /** The row, still ours (same attempt), in one of the statuses. */
  private ours(row: Claimed, statuses: string[]) {
    return and(
      eq(mailOutbox.id, row.id),
      eq(mailOutbox.attempts, row.attempts),
      inArray(mailOutbox.status, statuses),
    );
  }

  private backoff(attempts: number) {
    return Math.min(MAX_BACKOFF_MS, this.o.retryBaseMs * 2 ** (attempts - 1));
  }

  /** Back to the queue after a delay, or failed for good. */
  private async retryOrFail(row: Claimed, error: string, permanent: boolean, from: string[]) {
    const fail = permanent || row.attempts >= this.o.maxAttempts;
    await this.o.db
      .update(mailOutbox)
      .set(
        fail
          ? { status: 'failed', lastError: error.slice(0, 1000), ...this.wipe(row) }
          : {
              status: 'queued',
              lastError: error.slice(0, 1000),
              nextAttemptAt: new Date(Date.now() + this.backoff(row.attempts)),
            },
      )
      .where(this.ours(row, from));
    this.o.log.warn(
      { outboxId: row.id, template: row.template, attempts: row.attempts, error, failed: fail },
      fail ? 'mail failed' : 'mail will be retried',
    );
  }

  private wipe(row: Claimed) {
    if (ERASED_RECIPIENT_TEMPLATES.has(row.template)) {
      return { payload: {}, recipient: '', lastError: null };
    }
    return SENSITIVE_TEMPLATES.has(row.template) ? { payload: {} } : {};
  }

  private async mailBatch(): Promise<{ claimed: number; rateLimited: boolean }> {
    this.refill();
    const budget = Math.min(BATCH, Math.floor(this.tokens));
    if (budget < 1) return { claimed: 0, rateLimited: true };
    const rows = await this.claim(budget, false);
    this.tokens -= rows.length;
    if (rows.length === 0) return { claimed: 0, rateLimited: false };

    // Campaign mails: the campaign text and whether the recipient unsubscribed meanwhile.
    const accountIds = rows
      .filter((r) => r.template === 'campaign' && typeof r.payload.accountId === 'string')
      .map((r) => r.payload.accountId as string);
    const unsubscribed = new Map<string, boolean>();
    if (accountIds.length) {
      const found = await this.o.db
        .select({ id: accounts.id, unsubscribed: accounts.unsubscribed })
        .from(accounts)
        .where(inArray(accounts.id, accountIds));
      for (const a of found) unsubscribed.set(a.id, a.unsubscribed);
    }

    for (const row of rows) {
      try {
        await this.deliverMail(row, unsubscribed);
      } catch (err) {
        // Unexpected (a template bug, the database gone): the lease brings the row back.
        this.o.log.error({ err, outboxId: row.id }, 'mail delivery failed unexpectedly');
      }
    }
    return { claimed: rows.length, rateLimited: rows.length === budget && this.tokens < 1 };
  }

  private async campaign(id: string) {
    if (!this.campaignCache.has(id)) {
      const [c] = await this.o.db
        .select({
          subject: campaigns.subject,
          content: campaigns.content,
          sendToSelf: campaigns.sendToSelf,
        })
        .from(campaigns)
        .where(eq(campaigns.id, id));
      if (this.campaignCache.size > 100) this.campaignCache.clear();
      this.campaignCache.set(id, c ?? null);
    }
    return this.campaignCache.get(id) ?? null;
  }

  private async render(
    row: Claimed,
    unsubscribed: Map<string, boolean>,
  ): Promise<
    { mail: RenderedMail; headers: Record<string, string> } | { cancel: string } | { bad: string }
  > {
    if (row.template === 'campaign') {
      const accountId = row.payload.accountId as string | undefined;
      const c = row.campaign_id ? await this.campaign(row.campaign_id) : null;
      if (!c || !accountId) return { bad: 'campaign or account missing in the payload' };
      if (!unsubscribed.has(accountId)) return { cancel: 'account deleted' };
      if (unsubscribed.get(accountId) && !c.sendToSelf) return { cancel: 'unsubscribed' };
      const token = unsubscribeToken(this.o.unsubscribeSecret, accountId);
      const oneClick = `${this.o.publicUrl}/api/v1/unsubscribe?token=${token}`;
      return {
        mail: renderMail('campaign', row.locale, {
          subject: c.subject,
          content: c.content,
          unsubscribeUrl: `${this.o.publicUrl}/unsubscribe?token=${token}`,
        }),
        headers: {
          'List-Unsubscribe': `<${oneClick}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          Precedence: 'bulk',
        },
      };
    }
    if (!(row.template in TEMPLATES)) return { bad: `unknown template ${row.template}` };
    return {
      mail: renderMail(row.template as TemplateName, row.locale, row.payload as never),
      headers: { 'Auto-Submitted': 'auto-generated', ...listHeaders(row.payload) },
    };
  }

  private async deliverMail(row: Claimed, unsubscribed: Map<string, boolean>) {
    const rendered = await this.render(row, unsubscribed);
    if ('cancel' in rendered) {
      await this.o.db
        .update(mailOutbox)
        .set({ status: 'cancelled', lastError: rendered.cancel })
        .where(this.ours(row, ['sending']));
      return;
    }
    if ('bad' in rendered) return this.retryOrFail(row, rendered.bad, true, ['sending']);

    const raw = await new MailComposer({
      from: this.o.from,
      to: row.recipient,
      subject: rendered.mail.subject,
      text: rendered.mail.text,
      html: rendered.mail.html,
      messageId: row.message_id,
      headers: { ...rendered.headers, 'X-Poruch-Outbox-Id': row.id },
    })
      .compile()
      .build();

    // The point of no return (docs/mail.md). Once the COMMIT has left, the database applies it even
    // if we die before its answer. On a PostgreSQL server, not waiting for the WAL flush brings
    // that answer back in a round trip and keeps the window in which our crash loses the mail
    // small; a crash of the database itself in the next few hundred ms can undo it, and the mail
    // is then sent again. PGlite lives in our process, so its commit must be flushed: our crash
    // is its crash.
    const commit = () =>
      this.o.db.transaction(async (tx) => {
        if (!this.o.exclusive) await tx.execute(sql`SET LOCAL synchronous_commit = off`);
        const done = await tx
          .update(mailOutbox)
          .set({ status: 'sent', lastError: null })
          .where(this.ours(row, ['sending']))
          .returning({ id: mailOutbox.id });
        return done.length === 1;
      });
    const outcome: DeliveryOutcome = await this.o.transport.deliver(
      {
        id: row.id,
        from: this.envelopeFrom,
        to: row.recipient,
        raw,
        fileName: `${row.template}-${row.id}.eml`,
      },
      commit,
    );
    switch (outcome.kind) {
      case 'sent':
        // Confirmed (250 or the file renamed): `sent_at` marks it. A `sent` row without it was
        // committed before its end-of-data mark and then the process died: see recoverUnconfirmed.
        await this.o.db
          .update(mailOutbox)
          .set({ sentAt: new Date(), ...this.wipe(row) })
          .where(this.ours(row, ['sent']));
        this.o.log.debug({ outboxId: row.id, template: row.template }, 'mail sent');
        return;
      case 'abandoned':
        this.o.log.warn({ outboxId: row.id }, 'mail taken over by another worker');
        return;
      case 'unconfirmed':
        // The end of data went out: the server most likely has it. Sending again could
        // duplicate it, so it stays sent (at most once in this rare case).
        await this.o.db
          .update(mailOutbox)
          .set({ lastError: `unconfirmed: ${outcome.error}`.slice(0, 1000) })
          .where(this.ours(row, ['sent']));
        this.o.log.warn({ outboxId: row.id, error: outcome.error }, 'mail unconfirmed');
        return;
      case 'refused':
        return this.retryOrFail(
          row,
          outcome.error,
          outcome.permanent,
          outcome.committed ? ['sent'] : ['sending'],
        );
    }
  }

  private async pushBatch(): Promise<number> {
    const rows = await this.claim(PUSH_BATCH, true);
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.recipient);
    const subs = [
      ...(await this.o.db
        .select()
        .from(pushSubscriptions)
        .where(inArray(pushSubscriptions.id, ids))),
      // The devices of alerts (their digests' pushes).
      ...(await alertPushTargets(this.o.db, ids)),
    ];
    const byId = new Map(subs.map((s) => [s.id, s]));
    await Promise.all(
      rows.map(async (row) => {
        try {
          const sub = byId.get(row.recipient);
          if (!sub) {
            await this.o.db
              .update(mailOutbox)
              .set({ status: 'cancelled', lastError: 'subscription removed' })
              .where(this.ours(row, ['sending']));
            return;
          }
          const name = row.template.slice(PUSH_PREFIX.length) as PushName;
          const push = renderPush(name, row.locale, row.payload as never);
          const outcome: PushOutcome = await sendPush(
            this.o.vapid,
            sub,
            { ...push, tag: name },
            {
              topic: row.id.replaceAll('-', ''),
              allowPrivate: !!this.o.allowPrivatePush,
            },
          );
          if (outcome.kind === 'sent') {
            await this.o.db
              .update(mailOutbox)
              .set({ status: 'sent', sentAt: new Date(), lastError: null })
              .where(this.ours(row, ['sending']));
          } else if (outcome.kind === 'gone') {
            await this.o.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
            await dropAlertPush(this.o.db, sub.id);
            await this.o.db
              .update(mailOutbox)
              .set({ status: 'failed', lastError: `subscription gone (${outcome.error})` })
              .where(this.ours(row, ['sending']));
          } else {
            await this.retryOrFail(row, outcome.error, outcome.permanent, ['sending']);
          }
        } catch (err) {
          this.o.log.error({ err, outboxId: row.id }, 'push failed unexpectedly');
        }
      }),
    );
    return rows.length;
  }
}
