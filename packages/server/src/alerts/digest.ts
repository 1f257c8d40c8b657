import { sql, type SQL } from 'drizzle-orm';
import {
  alertFilterLines,
  createI18n,
  translator,
  type AlertFrequency,
  type AlertKind,
  type LocaleCode,
  type ServiceAlertFilters,
  type Translate,
  type VacancyAlertFilters,
} from '@poruch/core';
import type { Db } from '../db/index.js';
import { services, vacancies } from '../db/schema.js';
import type { Outbox } from '../mail/outbox.js';
import type { DigestItem } from '../mail/templates.js';
import { buildTextQuery, type TextQuery } from '../search/searchQuery.js';
import { serviceMatch } from '../search/services.js';
import { vacancyMatch } from '../search/vacancies.js';
import { alertMailHeaders, alertManageUrl } from './links.js';
import { enqueueAlertPushes } from './push.js';

/**
 * Alert digests (docs/mail.md § Alert digests, docs/product.md § Alerts): one mail per confirmed
 * subscription and period, listing what is new among the results of its search.
 *
 * - **New**: a service approved, or a vacancy opened (created, or its service approved), after
 *   the subscription's `last_digest_at` (its confirmation at first), and that the public search
 *   with the subscription's filters finds now. Approvals are read from the audit log
 *   (`service.approve`), the one record of when a service was approved.
 * - **Matching** is the search's own: `serviceMatch` / `vacancyMatch` build the conditions (the
 *   public-visibility rule included), run once per distinct filter set over the new items only.
 * - **At most once**: a run claims due subscriptions with `FOR UPDATE SKIP LOCKED` in a
 *   transaction that also records each (subscription, item) pair in `alert_deliveries` (a pair
 *   already there is not mailed again), queues the mails in the outbox and moves
 *   `last_digest_at` on. A crash rolls all of it back; another instance skips the rows claimed.
 */

/** How long a subscription waits between two digests. */
export const DIGEST_PERIOD_MS: Record<AlertFrequency, number> = {
  instant: 60 * 60_000,
  daily: 24 * 60 * 60_000,
  weekly: 7 * 24 * 60 * 60_000,
};

/** Items listed in one mail; the rest are "and N more", with a link to the full search. */
export const DIGEST_ITEM_CAP = 20;

/**
 * Items committed this long after their approval (or creation) time stamp still count: each
 * period after the first looks back this far before its start, and the pairs already mailed
 * are skipped.
 */
export const DIGEST_LOOKBACK_MS = 10 * 60_000;

/** Distinct filter sets matched per statement. */
const FILTERS_PER_STATEMENT = 100;

export interface DigestOptions {
  db: Db;
  outbox: Outbox;
  /** Public URL of the site, for links. */
  publicUrl: string;
  /** The secret of the alerts' signed links (manage, one-click unsubscribe). */
  secret: string;
  /** The clock; the real one by default. */
  now?: () => Date;
  /** Subscriptions claimed per transaction. */
  batchSize?: number;
  /** After each committed batch: the subscriptions it moved on and the mails it queued. */
  onBatch?: (batch: { subscriptions: number; mails: number }) => void;
}

export interface DigestRunResult {
  /** Subscriptions whose period ended (each moved on, mailed or not). */
  subscriptions: number;
  mails: number;
  /** (subscription, item) pairs mailed. */
  pairs: number;
}

interface Claimed {
  id: string;
  email: string;
  locale: LocaleCode;
  filters: ServiceAlertFilters | VacancyAlertFilters;
  since: string;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Ids as one array literal parameter (`'{…}'::uuid[]`): one value, however many. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Subscriptions of `kind` whose period has ended at `now`. */
function due(kind: AlertKind, now: Date): SQL {
  const ends = (['instant', 'daily', 'weekly'] as const).map(
    (f) =>
      sql`(frequency = ${f} AND coalesce(last_digest_at, confirmed_at) <= ${new Date(
        now.getTime() - DIGEST_PERIOD_MS[f],
      ).toISOString()}::timestamptz)`,
  );
  return sql`kind = ${kind} AND confirmed_at IS NOT NULL AND (${sql.join(ends, sql` OR `)})`;
}

/**
 * Where a subscription's new items start: its last digest less the look-back, or its
 * confirmation (nothing from before it).
 */
const sinceOf = sql`CASE WHEN last_digest_at > confirmed_at
  THEN last_digest_at - ${DIGEST_LOOKBACK_MS}::int * interval '1 millisecond'
  ELSE coalesce(last_digest_at, confirmed_at) END`;

/** Services approved after `since`, from the audit log. */
const approvedSince = (since: string) => sql`
  SELECT target_id::uuid AS id, max(created_at) AS at FROM audit_log
  WHERE action = 'service.approve' AND created_at > ${since}::timestamptz
  GROUP BY target_id`;

/** New items of `kind` after `since`: id → when it became new (ms). */
async function newItems(db: Db, kind: AlertKind, since: string): Promise<Map<string, number>> {
  const statement =
    kind === 'services'
      ? approvedSince(since)
      : sql`SELECT id, max(at) AS at FROM (
          SELECT id, created_at AS at FROM vacancies WHERE created_at > ${since}::timestamptz
          UNION ALL
          SELECT v.id, a.at FROM vacancies v JOIN (${approvedSince(since)}) a ON a.id = v.service_id
        ) n GROUP BY id`;
  const rows = rowsOf<{ id: string; at: string | Date }>(await db.execute(statement));
  return new Map(rows.map((r) => [r.id, new Date(r.at).getTime()]));
}

/** The filters that decide matching, in one canonical form (the place's label does not). */
function filterKey(filters: ServiceAlertFilters | VacancyAlertFilters): string {
  const f = filters as Record<string, unknown>;
  const near = f.near as ServiceAlertFilters['near'];
  return JSON.stringify([
    f.q ?? '',
    f.country ?? '',
    f.category ?? 'all',
    f.experience ?? '',
    near ? [near.lat, near.lng, near.radiusKm] : null,
  ]);
}

/** The text queries of a run, built once per distinct `q` (they look words up). */
type TextQueries = Map<string, Promise<TextQuery | null>>;

const textQueryOf = (db: Db, q: string | undefined, texts: TextQueries) => {
  const key = q ?? '';
  if (!texts.has(key)) texts.set(key, buildTextQuery(db, q));
  return texts.get(key)!;
};

/** The search conditions of an alert's filters: the public search's own. */
async function matchWhere(
  db: Db,
  kind: AlertKind,
  filters: ServiceAlertFilters | VacancyAlertFilters,
  texts: TextQueries,
): Promise<SQL> {
  const tq = await textQueryOf(db, filters.q, texts);
  if (kind === 'services') {
    const f = filters as ServiceAlertFilters;
    const near = f.near
      ? { near: { lat: f.near.lat, lng: f.near.lng }, radiusKm: f.near.radiusKm }
      : {};
    const query = { q: f.q, country: f.country, category: f.category ?? 'all', ...near };
    return (await serviceMatch(db, query, false, tq)).where;
  }
  const f = filters as VacancyAlertFilters;
  const query = {
    q: f.q,
    country: f.country,
    category: f.category ?? 'all',
    experience: f.experience,
    openOnly: true,
  };
  return (await vacancyMatch(db, query, tq)).where;
}

/** Indexes of the new rows, for the search's conditions (as the table's own indexes serve them). */
const CANDIDATE_INDEXES: Record<AlertKind, string[]> = {
  services: ['(country_code, category)', '(lat, lng)', 'USING gin (search_doc)'],
  vacancies: ['(service_country, service_category)', 'USING gin (search_doc)'],
};

/**
 * For each filter set, the new items the search finds. The new rows are copied into a temporary
 * table with the indexes the conditions use; each filter set is one `UNION ALL` branch over it,
 * under the table's own name (the search's conditions name it). Runs in a transaction.
 */
async function matchAll(
  tx: Db,
  kind: AlertKind,
  groups: { key: string; filters: ServiceAlertFilters | VacancyAlertFilters }[],
  candidates: string[],
  into: Map<string, string[]>,
  texts: TextQueries,
): Promise<void> {
  for (const g of groups) into.set(g.key, []);
  if (!candidates.length || !groups.length) return;
  const table = kind === 'services' ? services : vacancies;
  const name = sql.identifier(kind);
  const copy = sql.identifier(`alert_new_${kind}`);
  await tx.execute(sql`DROP TABLE IF EXISTS ${copy}`);
  await tx.execute(sql`CREATE TEMP TABLE ${copy} ON COMMIT DROP AS
    SELECT * FROM ${table} WHERE ${table.id} IN
      (SELECT (jsonb_array_elements_text(${JSON.stringify(candidates)}::jsonb))::uuid)`);
  for (const index of CANDIDATE_INDEXES[kind]) {
    await tx.execute(sql`CREATE INDEX ON ${copy} ${sql.raw(index)}`);
  }
  await tx.execute(sql`ANALYZE ${copy}`);
  for (let i = 0; i < groups.length; i += FILTERS_PER_STATEMENT) {
    const chunk = groups.slice(i, i + FILTERS_PER_STATEMENT);
    const branches: SQL[] = [];
    for (const [j, g] of chunk.entries()) {
      branches.push(sql`SELECT ${j}::int AS g, ${table.id} AS id FROM ${copy} AS ${name}
        WHERE ${await matchWhere(tx, kind, g.filters, texts)}`);
    }
    const result = await tx.execute(sql.join(branches, sql` UNION ALL `));
    for (const r of rowsOf<{ g: number; id: string }>(result)) {
      into.get(chunk[Number(r.g)]!.key)!.push(r.id);
    }
  }
  await tx.execute(sql`DROP TABLE ${copy}`);
}

/** What a digest shows of each item, by id. */
async function itemDetails(
  db: Db,
  kind: AlertKind,
  ids: string[],
): Promise<Map<string, { name: string; detail: string; path: string }>> {
  if (!ids.length) return new Map();
  const list = sql`(SELECT (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;
  const statement =
    kind === 'services'
      ? sql`SELECT id, name, address AS detail, '/services/' || id AS path
          FROM services WHERE id IN ${list}`
      : sql`SELECT v.id, v.name, s.name AS detail,
            '/services/' || v.service_id || '/vacancies' AS path
          FROM vacancies v JOIN services s ON s.id = v.service_id WHERE v.id IN ${list}`;
  const rows = rowsOf<{ id: string; name: string; detail: string; path: string }>(
    await db.execute(statement),
  );
  return new Map(rows.map(({ id, ...item }) => [id, item]));
}

const translators = new Map<LocaleCode, Translate>();
/** The search's filters as lines in the recipient's language, as the confirmation mail shows them. */
function searchLines(kind: AlertKind, filters: Claimed['filters'], locale: LocaleCode): string[] {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = translator(createI18n(locale))));
  return alertFilterLines({ kind, filters }, t);
}

/** The site's search with the alert's filters, in the recipient's language. */
export function fullSearchUrl(
  publicUrl: string,
  kind: AlertKind,
  filters: ServiceAlertFilters | VacancyAlertFilters,
  locale: LocaleCode,
): string {
  const f = filters as ServiceAlertFilters & VacancyAlertFilters;
  const p = new URLSearchParams();
  if (kind === 'vacancies') p.set('mode', 'vacancies');
  p.set('view', f.near && kind === 'services' ? 'map' : 'list');
  if (f.q?.trim()) p.set('q', f.q.trim());
  if (f.country) p.set('country', f.country);
  if (f.category && f.category !== 'all') p.set('category', f.category);
  if (f.near && kind === 'services') {
    p.set('center', `${f.near.lat},${f.near.lng}`);
    // The radius about fills a phone's map: zoom 12 shows some 10 km across.
    const zoom = Math.round(12 - Math.log2(Math.max(1, f.near.radiusKm) / 5));
    p.set('zoom', String(Math.min(14, Math.max(5, zoom))));
  }
  p.set('lang', locale);
  return `${publicUrl}/?${p.toString()}`;
}

/**
 * One run: every subscription whose period has ended gets its digest (when something is new)
 * and its period moved on. Safe to run at once in several processes.
 */
export async function runDigests(o: DigestOptions): Promise<DigestRunResult> {
  const total: DigestRunResult = { subscriptions: 0, mails: 0, pairs: 0 };
  for (const kind of ['services', 'vacancies'] as const) {
    const r = await runKind(o, kind);
    total.subscriptions += r.subscriptions;
    total.mails += r.mails;
    total.pairs += r.pairs;
  }
  return total;
}

async function runKind(o: DigestOptions, kind: AlertKind): Promise<DigestRunResult> {
  const { db } = o;
  const now = (o.now ?? (() => new Date()))();
  const result: DigestRunResult = { subscriptions: 0, mails: 0, pairs: 0 };
  const [first] = rowsOf<{ since: string | null }>(
    await db.execute(sql`SELECT min(${sinceOf})::text AS since
      FROM alert_subscriptions WHERE ${due(kind, now)}`),
  );
  if (!first?.since) return result;
  // Computed once per run: the new items, their details, and each filter set's matches.
  const candidates = await newItems(db, kind, first.since);
  const details = await itemDetails(db, kind, [...candidates.keys()]);
  const matches = new Map<string, string[]>();
  /** Each search's lines and link in a language, once per run. */
  const searches = new Map<string, { lines: string[]; url: string }>();
  const texts: TextQueries = new Map();
  const batchSize = o.batchSize ?? 5000;
  // Every distinct search of the due subscriptions, matched at once.
  const distinct = new Map<string, Claimed['filters']>();
  for (const r of rowsOf<{ filters: Claimed['filters'] | string }>(
    await db.execute(sql`SELECT DISTINCT filters FROM alert_subscriptions WHERE ${due(kind, now)}`),
  )) {
    const filters = typeof r.filters === 'string' ? JSON.parse(r.filters) : r.filters;
    distinct.set(filterKey(filters), filters);
  }
  await db.transaction((tx) =>
    matchAll(
      tx as unknown as Db,
      kind,
      [...distinct].map(([key, filters]) => ({ key, filters })),
      [...candidates.keys()],
      matches,
      texts,
    ),
  );

  for (;;) {
    const done = await db.transaction(async (tx) => {
      const claimed = rowsOf<Claimed>(
        await tx.execute(sql`
          SELECT id, email, locale, filters, (${sinceOf})::text AS since
          FROM alert_subscriptions WHERE ${due(kind, now)}
          ORDER BY id LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`),
      ).map((r) => ({
        ...r,
        filters: typeof r.filters === 'string' ? JSON.parse(r.filters) : r.filters,
      }));
      if (!claimed.length) return true;

      const missing = new Map<string, Claimed['filters']>();
      for (const c of claimed) {
        const key = filterKey(c.filters);
        if (!matches.has(key)) missing.set(key, c.filters);
      }
      // A search changed since (its subscription's filters were edited): matched now.
      await matchAll(
        tx as unknown as Db,
        kind,
        [...missing].map(([key, filters]) => ({ key, filters })),
        [...candidates.keys()],
        matches,
        texts,
      );

      // Each subscription's new matches, the newest first.
      const news = claimed.map((c) => {
        const since = new Date(c.since).getTime();
        const items = (matches.get(filterKey(c.filters)) ?? [])
          .filter((i) => candidates.get(i)! > since && details.has(i))
          .sort((a, b) => candidates.get(b)! - candidates.get(a)! || a.localeCompare(b));
        return { c, since, items };
      });
      // An item of the look-back (from before the last digest) may have been mailed by it.
      const maybeMailed = news.flatMap(({ c, since, items }) =>
        items.filter((i) => candidates.get(i)! <= since + DIGEST_LOOKBACK_MS).map((i) => [c.id, i]),
      );
      const before = new Set(
        maybeMailed.length
          ? rowsOf<{ s: string; i: string }>(
              await tx.execute(sql`
                SELECT d.subscription_id AS s, d.item_id AS i
                FROM jsonb_array_elements(${JSON.stringify(maybeMailed)}::jsonb) p
                JOIN alert_deliveries d ON d.subscription_id = (p->>0)::uuid
                  AND d.item_kind = ${kind} AND d.item_id = (p->>1)::uuid`),
            ).map((r) => `${r.s} ${r.i}`)
          : [],
      );
      // The first DIGEST_ITEM_CAP of what was not mailed before are listed.
      const fresh = new Map<string, string[]>();
      const pairs: [string, string][] = [];
      for (const { c, items } of news) {
        const unmailed = items.filter((i) => !before.has(`${c.id} ${i}`));
        if (!unmailed.length) continue;
        fresh.set(c.id, unmailed);
        for (const i of unmailed.slice(0, DIGEST_ITEM_CAP)) pairs.push([c.id, i]);
      }
      // The record of each pair listed; one that is there already is not listed again.
      const recorded = new Set(
        pairs.length
          ? rowsOf<{ s: string; i: string }>(
              await tx.execute(sql`
                INSERT INTO alert_deliveries (subscription_id, item_kind, item_id, mailed_at)
                SELECT p.s, ${kind}, p.i, ${now.toISOString()}::timestamptz
                FROM unnest(${uuidArray(pairs.map((p) => p[0]))}::uuid[],
                            ${uuidArray(pairs.map((p) => p[1]))}::uuid[]) AS p(s, i)
                ON CONFLICT DO NOTHING
                RETURNING subscription_id AS s, item_id AS i`),
            ).map((r) => `${r.s} ${r.i}`)
          : [],
      );

      const mails = claimed.flatMap((c) => {
        const all = fresh.get(c.id);
        if (!all) return [];
        const listed = all
          .slice(0, DIGEST_ITEM_CAP)
          .filter((i) => recorded.has(`${c.id} ${i}`))
          .map((i) => details.get(i)!);
        if (!listed.length) return [];
        const items: DigestItem[] = listed.map((d) => ({
          name: d.name,
          detail: d.detail,
          url: `${o.publicUrl}${d.path}?lang=${c.locale}`,
        }));
        const subscription = { id: c.id, email: c.email, locale: c.locale };
        const searchKey = `${c.locale} ${filterKey(c.filters)}`;
        let search = searches.get(searchKey);
        if (!search) {
          search = {
            lines: searchLines(kind, c.filters, c.locale),
            url: fullSearchUrl(o.publicUrl, kind, c.filters, c.locale),
          };
          searches.set(searchKey, search);
        }
        return [
          {
            to: c.email,
            alertId: c.id,
            locale: c.locale,
            key: `alert:${c.id}:${now.getTime()}`,
            params: {
              kind,
              filters: search.lines,
              items,
              more: Math.max(0, all.length - DIGEST_ITEM_CAP),
              searchUrl: search.url,
              manageUrl: alertManageUrl(o.publicUrl, o.secret, subscription),
              headers: alertMailHeaders(o.publicUrl, o.secret, subscription),
            },
          },
        ];
      });
      await o.outbox.enqueueMany(tx, 'alertDigest', mails);
      // …and its push to each device of the alert (alerts/push.ts).
      await enqueueAlertPushes(tx, mails);
      await tx.execute(sql`
        UPDATE alert_subscriptions SET last_digest_at = ${now.toISOString()}::timestamptz
        WHERE id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(
          claimed.map((c) => c.id),
        )}::jsonb))::uuid)`);
      result.subscriptions += claimed.length;
      result.mails += mails.length;
      result.pairs += recorded.size;
      return {
        last: claimed.length < batchSize,
        subscriptions: claimed.length,
        mails: mails.length,
      };
    });
    if (done === true) break;
    o.onBatch?.({ subscriptions: done.subscriptions, mails: done.mails });
    if (done.last) break;
  }
  return result;
}
