import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Campaign, CampaignInput } from '@poruch/core';
import type { Db } from '../db/index.js';
import { campaigns } from '../db/schema.js';
import type { Executor } from './catalogue.js';

type CampaignRow = typeof campaigns.$inferSelect;
type Progress = { queued: number; sent: number; failed: number };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Accounts (as `a`) that get a campaign: owners of at least one service with one of the statuses
 * and categories (an empty list means any), who have not unsubscribed. An account is one address.
 */
function recipientsWhere(input: Pick<CampaignInput, 'statuses' | 'categories'>): SQL {
  const statuses = JSON.stringify(input.statuses);
  const categories = JSON.stringify(input.categories);
  return sql`NOT a.unsubscribed AND EXISTS (
    SELECT 1 FROM services s
    WHERE s.owner_id = a.id
      AND (jsonb_array_length(${statuses}::jsonb) = 0
           OR s.status IN (SELECT jsonb_array_elements_text(${statuses}::jsonb)))
      AND (jsonb_array_length(${categories}::jsonb) = 0
           OR s.category IN (SELECT jsonb_array_elements_text(${categories}::jsonb))))`;
}

/** How many addresses a campaign would go to. */
export async function countRecipients(
  db: Executor,
  input: Pick<CampaignInput, 'statuses' | 'categories'>,
): Promise<number> {
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM accounts a WHERE ${recipientsWhere(input)}`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Creates a campaign and queues one mail per recipient in the same transaction, set-based
 * (INSERT … SELECT): 10,000 recipients are one statement, not 10,000. With `sendToSelf` the
 * only recipient is the administrator. Returns the campaign and the number of mails queued.
 */
export async function createCampaign(
  tx: Executor,
  { adminId, input, domain }: { adminId: string; input: CampaignInput; domain: string },
): Promise<{ row: CampaignRow; recipients: number }> {
  const [row] = await tx
    .insert(campaigns)
    .values({
      createdBy: adminId,
      subject: input.subject,
      content: input.content,
      statuses: input.statuses,
      categories: input.categories,
      sendToSelf: input.sendToSelf,
    })
    .returning();
  const who = input.sendToSelf ? sql`a.id = ${adminId}` : recipientsWhere(input);
  // The CTE with gen_random_uuid() is materialised: one id per recipient, used twice.
  const result = await tx.execute(sql`
    WITH r AS (
      SELECT gen_random_uuid() AS gid, a.id, a.email, a.locale FROM accounts a WHERE ${who}
    ), queued AS (
      INSERT INTO mail_outbox
        (id, idempotency_key, message_id, recipient, template, locale, payload, campaign_id)
      SELECT r.gid, 'campaign:' || ${row!.id} || ':' || r.id,
             '<' || r.gid || '@' || ${domain} || '>', r.email, 'campaign', r.locale,
             jsonb_build_object('accountId', r.id), ${row!.id}::uuid
      FROM r
      RETURNING id, recipient, payload
    ), recipients AS (
      INSERT INTO campaign_recipients (campaign_id, email, account_id, outbox_id)
      SELECT ${row!.id}::uuid, lower(q.recipient), (q.payload->>'accountId')::uuid, q.id
      FROM queued q
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM recipients`);
  return { row: row!, recipients: Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0) };
}

/**
 * Delivery progress per campaign: `queued` is every mail queued for it, `sent` and `failed` (a
 * permanent refusal, or cancelled because the recipient unsubscribed or was deleted before the
 * mail went out) count the finished ones. Done when sent + failed = queued.
 */
export async function campaignProgress(
  db: Executor,
  ids: string[],
): Promise<Map<string, Progress>> {
  const progress = new Map<string, Progress>(
    ids.map((id) => [id, { queued: 0, sent: 0, failed: 0 }]),
  );
  if (ids.length === 0) return progress;
  const result = await db.execute(sql`
    SELECT cr.campaign_id AS id,
           count(*)::int AS queued,
           count(*) FILTER (WHERE o.status = 'sent')::int AS sent,
           count(*) FILTER (WHERE o.status IN ('failed', 'cancelled'))::int AS failed
    FROM campaign_recipients cr JOIN mail_outbox o ON o.id = cr.outbox_id
    WHERE cr.campaign_id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
    GROUP BY cr.campaign_id`);
  for (const r of rowsOf<{ id: string } & Progress>(result)) {
    progress.set(r.id, {
      queued: Number(r.queued),
      sent: Number(r.sent),
      failed: Number(r.failed),
    });
  }
  return progress;
}

export function campaignToApi(row: CampaignRow, progress: Progress): Campaign {
  return {
    id: row.id,
    subject: row.subject,
    content: row.content,
    statuses: row.statuses,
    categories: row.categories,
    sendToSelf: row.sendToSelf,
    ...progress,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A page of campaigns, newest first, with their progress. */
export async function listCampaigns(db: Db, page: number, pageSize: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(campaigns)
      .orderBy(desc(campaigns.createdAt))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(campaigns),
  ]);
  const progress = await campaignProgress(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => campaignToApi(r, progress.get(r.id)!)),
    total: total!.n,
    page,
    pageSize,
  };
}

/** One campaign with its progress, or null. */
export async function findCampaign(db: Db, id: string) {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!row) return null;
  const progress = await campaignProgress(db, [id]);
  return campaignToApi(row, progress.get(id)!);
}
