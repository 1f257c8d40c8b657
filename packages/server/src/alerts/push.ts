import { and, count, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { ALERT_LIMITS, type PushSubscriptionInput } from '@poruch/core';
import type { Db } from '../db/index.js';
import { alertPushSubscriptions } from '../db/schema.js';
import { PUSH_PREFIX } from '../mail/outbox.js';
import type { Executor } from '../repositories/catalogue.js';

/**
 * Alert pushes (docs/mail.md § Alert pushes): the installed app sends the browser's push
 * subscription with a new alert ("Also notify me on this device"). The row waits until a
 * confirmation link mailed after it is opened, so nothing is pushed to a device before the
 * address has confirmed (double opt-in stays); then each digest of the alert also queues one push
 * per device ("N new results for …", linking to the full search), in the digest's transaction and
 * at most once per digest (the digest's key). The outbox worker sends them as the other pushes,
 * and a 404 or 410 from the push service removes the device.
 */

/** Stores a device of an alert, pending confirmation; the same device again renews its keys. */
export async function addAlertPush(
  tx: Executor,
  alertId: string,
  push: PushSubscriptionInput,
  at: Date,
): Promise<void> {
  const [held] = await tx
    .select({ n: count() })
    .from(alertPushSubscriptions)
    .where(eq(alertPushSubscriptions.alertId, alertId));
  const values = { p256dh: push.keys.p256dh, auth: push.keys.auth };
  if (held!.n >= ALERT_LIMITS.devicesPerAlert) {
    // Full: only a device already there is renewed.
    await tx
      .update(alertPushSubscriptions)
      .set(values)
      .where(
        and(
          eq(alertPushSubscriptions.alertId, alertId),
          eq(alertPushSubscriptions.endpoint, push.endpoint),
        ),
      );
    return;
  }
  await tx
    .insert(alertPushSubscriptions)
    .values({ alertId, endpoint: push.endpoint, ...values, createdAt: at })
    .onConflictDoUpdate({
      target: [alertPushSubscriptions.alertId, alertPushSubscriptions.endpoint],
      set: values,
    });
}

/**
 * The confirmation link of an alert, mailed at `mailedAt`, was opened: the devices stored up to
 * then start getting pushes (one stored later waits for the link mailed with it).
 */
export async function confirmAlertPushes(
  tx: Executor,
  alertId: string,
  mailedAt: Date,
  at: Date,
): Promise<void> {
  await tx
    .update(alertPushSubscriptions)
    .set({ confirmedAt: at })
    .where(
      and(
        eq(alertPushSubscriptions.alertId, alertId),
        isNull(alertPushSubscriptions.confirmedAt),
        // The link's time is kept to the second.
        lt(alertPushSubscriptions.createdAt, new Date(mailedAt.getTime() + 1000)),
      ),
    );
}

/** How many confirmed devices each alert pushes to. */
export async function alertDeviceCounts(db: Executor, alertIds: string[]) {
  if (!alertIds.length) return new Map<string, number>();
  const rows = await db
    .select({ id: alertPushSubscriptions.alertId, n: count() })
    .from(alertPushSubscriptions)
    .where(
      and(
        inArray(alertPushSubscriptions.alertId, alertIds),
        isNotNull(alertPushSubscriptions.confirmedAt),
      ),
    )
    .groupBy(alertPushSubscriptions.alertId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Turns the pushes of an alert off on every device. */
export async function removeAlertPushes(db: Executor, alertId: string): Promise<void> {
  await db.delete(alertPushSubscriptions).where(eq(alertPushSubscriptions.alertId, alertId));
}

/** A digest just queued, as the push about it needs it. */
export interface DigestForPush {
  alertId: string;
  /** The digest mail's idempotency key: one push per device and digest. */
  key: string;
  locale: string;
  params: { filters: string[]; items: unknown[]; more: number; searchUrl: string };
}

/**
 * Queues the push of each digest to every confirmed device of its alert, in one statement, in
 * the digest's transaction.
 */
export async function enqueueAlertPushes(tx: Executor, digests: DigestForPush[]): Promise<void> {
  if (!digests.length) return;
  const rows = digests.map((d) => ({
    alert: d.alertId,
    key: d.key,
    locale: d.locale,
    params: {
      count: d.params.items.length + d.params.more,
      search: d.params.filters.join(' · '),
      url: d.params.searchUrl,
    },
  }));
  await tx.execute(sql`
    INSERT INTO mail_outbox (idempotency_key, message_id, recipient, template, locale, payload)
    SELECT d.key || ':push:' || p.id, '', p.id::text, ${`${PUSH_PREFIX}alertDigest`}, d.locale,
           d.params
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS d(alert uuid, key text, locale text, params jsonb)
    JOIN alert_push_subscriptions p ON p.alert_id = d.alert AND p.confirmed_at IS NOT NULL
    ON CONFLICT (idempotency_key) DO NOTHING`);
}

/** The devices of alert pushes among the outbox's recipients (subscription ids). */
export function alertPushTargets(db: Db, ids: string[]) {
  return db
    .select({
      id: alertPushSubscriptions.id,
      endpoint: alertPushSubscriptions.endpoint,
      p256dh: alertPushSubscriptions.p256dh,
      auth: alertPushSubscriptions.auth,
    })
    .from(alertPushSubscriptions)
    .where(inArray(alertPushSubscriptions.id, ids));
}

/** The push service said the device is gone (404, 410): it gets no more pushes. */
export async function dropAlertPush(db: Db, id: string): Promise<void> {
  await db.delete(alertPushSubscriptions).where(eq(alertPushSubscriptions.id, id));
}
