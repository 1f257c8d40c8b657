import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LocaleCode } from '@poruch/core';
import { mailOutbox } from '../db/schema.js';
import type { Executor } from '../repositories/catalogue.js';
import type { PushName, PushParams, TemplateName, TemplateParams } from './templates.js';

/** Templates whose payload is a secret: it is wiped once the mail is delivered or has failed. */
export const SENSITIVE_TEMPLATES: ReadonlySet<string> = new Set(['resetPassword']);

/**
 * Templates sent to an address whose account no longer exists (the deletion notice): once
 * delivered or failed, the row keeps no address either (docs/security.md § Privacy).
 */
export const ERASED_RECIPIENT_TEMPLATES: ReadonlySet<string> = new Set(['accountDeleted']);

/** Outbox rows of push notifications have this template prefix; their recipient is a subscription id. */
export const PUSH_PREFIX = 'push:';

/** One mail for the outbox. */
export interface OutgoingMail<N extends TemplateName> {
  to: string;
  template: N;
  locale: LocaleCode;
  params: TemplateParams<N>;
  /**
   * What makes this mail unique, e.g. `serviceApproved:<service id>:<time>`. Enqueueing the same
   * key twice makes one mail.
   */
  key: string;
}

/** The host part of Message-IDs: the domain of the sender address. */
export function messageIdDomain(mailFrom: string): string {
  return /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'poruch.local';
}

/**
 * Writes mail and push notifications into the outbox. Every method takes the transaction of the
 * action that causes the message, so the message exists if and only if the action committed.
 */
export class Outbox {
  constructor(
    /** Host part of the Message-IDs. */
    readonly domain: string,
  ) {}

  /** Queues one mail; a key already queued makes nothing new. */
  async enqueue<N extends TemplateName>(tx: Executor, mail: OutgoingMail<N>): Promise<void> {
    const id = randomUUID();
    await tx
      .insert(mailOutbox)
      .values({
        id,
        idempotencyKey: mail.key,
        messageId: `<${id}@${this.domain}>`,
        recipient: mail.to,
        template: mail.template,
        locale: mail.locale,
        payload: mail.params as Record<string, unknown>,
      })
      .onConflictDoNothing({ target: mailOutbox.idempotencyKey });
  }

  /**
   * Queues many mails of one template in one statement (set-based: the alert digests queue
   * thousands at once); a key already queued makes nothing new.
   */
  async enqueueMany<N extends TemplateName>(
    tx: Executor,
    template: N,
    mails: Omit<OutgoingMail<N>, 'template'>[],
  ): Promise<void> {
    if (!mails.length) return;
    const rows = mails.map((m) => ({
      id: randomUUID(),
      key: m.key,
      to: m.to,
      locale: m.locale,
      params: m.params,
    }));
    await tx.execute(sql`
      INSERT INTO mail_outbox (id, idempotency_key, message_id, recipient, template, locale, payload)
      SELECT m.id, m.key, '<' || m.id || '@' || ${this.domain} || '>', m.to, ${template},
             m.locale, m.params
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS m(id uuid, key text, "to" text, locale text, params jsonb)
      ON CONFLICT (idempotency_key) DO NOTHING`);
  }

  /** Queues the same mail to every administrator, each in their locale. */
  async enqueueToAdmins<N extends TemplateName>(
    tx: Executor,
    mail: Omit<OutgoingMail<N>, 'to' | 'locale'>,
  ): Promise<void> {
    // A CTE with a volatile function is evaluated once per row and then materialised.
    await tx.execute(sql`
      WITH r AS (SELECT gen_random_uuid() AS gid, a.id, a.email, a.locale
                 FROM accounts a WHERE a.type = 'ADMIN')
      INSERT INTO mail_outbox (id, idempotency_key, message_id, recipient, template, locale, payload)
      SELECT r.gid, ${mail.key} || ':' || r.id, '<' || r.gid || '@' || ${this.domain} || '>',
             r.email, ${mail.template}, r.locale, ${JSON.stringify(mail.params)}::jsonb
      FROM r
      ON CONFLICT (idempotency_key) DO NOTHING`);
  }

  /**
   * Queues a push notification to every browser subscription of the account (or of every
   * administrator), rendered in the account's locale when it is delivered.
   */
  async enqueuePush<N extends PushName>(
    tx: Executor,
    push: { to: { accountId: string } | 'admins'; name: N; params: PushParams<N>; key: string },
  ): Promise<void> {
    const who =
      push.to === 'admins' ? sql`a.type = 'ADMIN'` : sql`ps.account_id = ${push.to.accountId}`;
    await tx.execute(sql`
      INSERT INTO mail_outbox (idempotency_key, message_id, recipient, template, locale, payload)
      SELECT ${push.key} || ':' || ps.id, '', ps.id::text, ${PUSH_PREFIX + push.name}, a.locale,
             ${JSON.stringify(push.params)}::jsonb
      FROM push_subscriptions ps JOIN accounts a ON a.id = ps.account_id
      WHERE ${who}
      ON CONFLICT (idempotency_key) DO NOTHING`);
  }
}
