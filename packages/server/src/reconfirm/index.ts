import { RECONFIRMATION, type LocaleCode } from '@poruch/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { yieldToRequests } from '../lib/periodicJob.js';
import { services } from '../db/schema.js';
import type { Outbox } from '../mail/outbox.js';
import { signedToken, verifySignedToken } from '../mail/unsubscribe.js';
import type { Executor } from '../repositories/catalogue.js';
import type { ServiceRow } from '../repositories/services.js';

/**
 * Yearly re-confirmation by owners (docs/product.md § Re-confirmation, docs/mail.md): twelve
 * months after a service's `confirmedAt` its owner is mailed a signed "Still active" link and an
 * "Update" link, reminded 14 days later; 30 days after the mail an unconfirmed service is
 * `overdue` (labelled, ranked below), after 90 days `lapsed` (out of every public view, see
 * search/visibility.ts) until its owner confirms.
 */

const DAY_MS = 24 * 60 * 60_000;
/** How long a "Still active" link works after its mail, in days (the cycle ends earlier on confirming). */
export const RECONFIRM_LINK_DAYS = 365;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The columns of a service confirmed at `now`: a new cycle starts. */
export const confirmedNow = (now: Date) => ({
  confirmedAt: now,
  reconfirmMailedAt: null,
  reconfirmRemindedAt: null,
  confirmation: 'current' as const,
});

/**
 * The token of a "Still active" link: the service and its cycle (the `confirmedAt` the mail was
 * about, so a confirmed cycle's link is spent) and an expiry, signed like the unsubscribe links.
 */
export function reconfirmToken(secret: string, serviceId: string, confirmedAt: Date, now: Date) {
  const expires = Math.floor((now.getTime() + RECONFIRM_LINK_DAYS * DAY_MS) / 1000);
  const value = `${serviceId}_${confirmedAt.getTime().toString(36)}_${expires.toString(36)}`;
  return signedToken(secret, 'reconfirm', value);
}

/** The service and cycle of a token; `expired` after its days, null when malformed or forged. */
export function verifyReconfirmToken(
  secret: string,
  token: string,
  now: Date,
): { id: string; confirmedAt: Date } | 'expired' | null {
  const value = verifySignedToken(secret, 'reconfirm', token);
  const [id, cycle, expires] = value?.split('_') ?? [];
  if (!id || !cycle || !expires || !UUID.test(id)) return null;
  if (parseInt(expires, 36) * 1000 < now.getTime()) return 'expired';
  return { id, confirmedAt: new Date(parseInt(cycle, 36)) };
}

export interface ReconfirmOptions {
  db: Db;
  outbox: Outbox;
  /** The site's URL, for the links. */
  publicUrl: string;
  /** The HMAC secret of mailed links. */
  secret: string;
  /** Services claimed (or moved) per transaction. */
  batchSize?: number;
  now?: () => Date;
}

export interface ReconfirmRunResult {
  mailed: number;
  reminded: number;
  overdue: number;
  lapsed: number;
}

interface Claimed {
  id: string;
  name: string;
  confirmed_at: Date | string;
  email: string | null;
  locale: LocaleCode | null;
}

const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/**
 * One run at `now`: claims the services due for the mail, then for the reminder (a conditional
 * UPDATE … RETURNING with SKIP LOCKED, so with several instances each mail is claimed once),
 * queuing the mails in the claim's transaction; then moves services that crossed 30 or 90 days
 * to `overdue` or `lapsed`. Those writes retire the caches of search and profiles; `changed`
 * says whether the map has to be told.
 */
export async function runReconfirmation(o: ReconfirmOptions): Promise<ReconfirmRunResult> {
  const now = (o.now ?? (() => new Date()))();
  const at = now.toISOString();
  const limit = o.batchSize ?? 100;
  const days = (n: number) => new Date(now.getTime() - n * DAY_MS).toISOString();

  const claim = async (kind: 'mail' | 'reminder') =>
    o.db.transaction(async (tx) => {
      const due =
        kind === 'mail'
          ? sql`s.reconfirm_mailed_at IS NULL
              AND s.confirmed_at <= ${at}::timestamptz - make_interval(months => ${RECONFIRMATION.mailAfterMonths})`
          : sql`s.reconfirm_mailed_at IS NOT NULL AND s.reconfirm_reminded_at IS NULL
              AND s.reconfirm_mailed_at <= ${days(RECONFIRMATION.reminderDays)}::timestamptz`;
      const set =
        kind === 'mail'
          ? sql`reconfirm_mailed_at = ${at}::timestamptz`
          : sql`reconfirm_reminded_at = ${at}::timestamptz`;
      const rows = rowsOf<Claimed>(
        await tx.execute(sql`
          WITH due AS (
            SELECT s.id FROM services s
             WHERE s.status = 'approved' AND s.confirmed_at IS NOT NULL AND ${due}
             ORDER BY s.confirmed_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ), claimed AS (
            UPDATE services s SET ${set} FROM due WHERE s.id = due.id
            RETURNING s.id, s.name, s.confirmed_at, s.owner_id
          )
          SELECT c.id, c.name, c.confirmed_at, a.email, a.locale
            FROM claimed c LEFT JOIN accounts a ON a.id = c.owner_id`),
      );
      const mails = rows.flatMap((row) => {
        if (!row.email || !row.locale) return [];
        const confirmedAt = new Date(row.confirmed_at);
        const token = reconfirmToken(o.secret, row.id, confirmedAt, now);
        return {
          to: row.email,
          locale: row.locale,
          params: {
            serviceName: row.name,
            confirmedAt: confirmedAt.toISOString(),
            confirmUrl: `${o.publicUrl}/confirm-service?token=${token}&lang=${row.locale}`,
            updateUrl: `${o.publicUrl}/dashboard/services/${row.id}`,
            hideDays: RECONFIRMATION.lapsedDays,
          },
          // One per cycle: the cycle is the confirmation time it is about.
          key: `${kind === 'mail' ? 'reconfirm' : 'reconfirm-reminder'}:${row.id}:${confirmedAt.getTime()}`,
        };
      });
      await o.outbox.enqueueMany(tx, kind === 'mail' ? 'reconfirm' : 'reconfirmReminder', mails);
      return rows.length;
    });

  // In short transactions, a turn of the event loop between two: on the embedded database the
  // requests' queries wait for the one in hand (alerts/digest.ts § In short slices).
  const batches = async (step: () => Promise<number>) => {
    let total = 0;
    for (let n = limit; n === limit; total += n) {
      await yieldToRequests();
      n = await step();
    }
    return total;
  };
  const mailed = await batches(() => claim('mail'));
  const reminded = await batches(() => claim('reminder'));

  const move = (to: 'overdue' | 'lapsed', fromDays: number) => async () =>
    rowsOf<{ id: string }>(
      await o.db.execute(sql`
        UPDATE services SET confirmation = ${to}
         WHERE id IN (SELECT id FROM services
           WHERE status = 'approved' AND reconfirm_mailed_at IS NOT NULL
             AND reconfirm_mailed_at <= ${days(fromDays)}::timestamptz
             AND confirmation ${to === 'lapsed' ? sql`<> 'lapsed'` : sql`= 'current'`}
           LIMIT ${limit})
        RETURNING id`),
    ).length;
  const lapsed = await batches(move('lapsed', RECONFIRMATION.lapsedDays));
  const overdue = await batches(move('overdue', RECONFIRMATION.overdueDays));
  return { mailed, reminded, overdue, lapsed };
}

/**
 * Confirms a service now (its owner's button, or the mail's link): a new cycle, back in every
 * public view. Only an approved service has anything to confirm. The row before and after, or
 * null when no service matched.
 */
export async function confirmService(
  db: Executor,
  where: { id: string; ownerId?: string; cycle?: Date },
  now: Date,
): Promise<{ before: ServiceRow; after: ServiceRow } | null> {
  const [before] = await db
    .select()
    .from(services)
    .where(
      and(
        eq(services.id, where.id),
        where.ownerId ? eq(services.ownerId, where.ownerId) : undefined,
      ),
    )
    .limit(1);
  if (!before) return null;
  const confirmed = before.confirmedAt?.getTime() ?? 0;
  // A link of a cycle already confirmed (opened twice, or after the dashboard's button): done.
  if (where.cycle && confirmed > where.cycle.getTime()) return { before, after: before };
  if (where.cycle && confirmed !== where.cycle.getTime()) return null;
  if (before.status !== 'approved') return { before, after: before };
  const [after] = await db
    .update(services)
    .set(confirmedNow(now))
    .where(eq(services.id, before.id))
    .returning();
  return after ? { before, after } : null;
}
