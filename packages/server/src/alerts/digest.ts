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
import { yieldToRequests } from '../lib/periodicJob.js';
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
 *   with the subscription's filters finds now. A service's approval time is its `approved_at`
 *   (set by the approve route; indexed).
 * - **Matching** is the search's own: `serviceMatch` / `vacancyMatch` build the conditions (the
 *   public-visibility rule included). Their conditions are a conjunction, so each distinct
 *   filter of the due subscriptions (a country, a category, a word, a place and radius…) is
 *   matched once over the new items only, and a search's matches are the intersection of its
 *   filters' matches; thousands of subscriptions share each search, and each search is computed
 *   once per run.
 * - **Unconfirmed** subscriptions are deleted a week after they were made (nothing was ever
 *   sent to them but the confirmation request), at the start of each run.
 * - **At most once**: a run claims due subscriptions with `FOR UPDATE SKIP LOCKED` in a
 *   transaction that queues the mails in the outbox and moves `last_digest_at` on. A crash rolls
 *   back the batch in hand; another instance skips the rows claimed. The next period starts
 *   DIGEST_LOOKBACK_MS before this one's end, so an item new within that much of the end may be
 *   found again: each such (subscription, item) pair is recorded in `alert_deliveries`, and a
 *   pair already there is not mailed again. Older items cannot come back, and are not recorded.
 * - **In short slices**: on the embedded database (one connection, in this process) every query
 *   of every request waits while a transaction runs, and nothing runs while JavaScript does. So
 *   the run works in slices, each a short statement or transaction, with a turn of the event loop
 *   between them (`yieldToRequests`): the searches are matched PARTS_PER_STATEMENT parts per
 *   statement (a read: no transaction), the subscriptions claimed `batchSize` (DIGEST_BATCH)
 *   per transaction, in the order of their ids from where the last batch ended, and the mails of
 *   a batch built a few at a time. A request waits for at most the slice in hand (docs/performance.md § Alert digests).
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

/** Parts of searches (see Part) matched per statement. */
const PARTS_PER_STATEMENT = 20;

/** Subscriptions claimed per transaction, unless told (ALERT_DIGEST_BATCH). */
export const DIGEST_BATCH = 100;

/** Mails built between two turns of the event loop. */
const MAILS_PER_TURN = 25;

export interface DigestOptions {
  db: Db;
  outbox: Outbox;
  /** Public URL of the site, for links. */
  publicUrl: string;
  /** The secret of the alerts' signed links (manage, one-click unsubscribe). */
  secret: string;
  /** The clock; the real one by default. */
  now?: () => Date;
  /** Subscriptions claimed per transaction (DIGEST_BATCH by default). */
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
  /** Unconfirmed subscriptions deleted after their week. */
  purged: number;
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

/** Services approved after `since` (their `approved_at`, indexed). */
const approvedSince = (since: string) => sql`
  SELECT id, approved_at AS at FROM services WHERE approved_at > ${since}::timestamptz`;

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

/**
 * One condition of an alert's search: the public search's own query with a single filter set
 * (or none: what is publicly visible). The search's conditions are a conjunction, each with the
 * visibility rule, so an alert's matches are the intersection of its filters' matches.
 */
interface Part {
  q?: string;
  country?: string;
  category?: ServiceAlertFilters['category'];
  experience?: VacancyAlertFilters['experience'];
  near?: ServiceAlertFilters['near'];
}

/** The parts of an alert's filters; every alert has at least the visibility one. */
function partsOf(kind: AlertKind, filters: ServiceAlertFilters | VacancyAlertFilters): Part[] {
  const f = filters as ServiceAlertFilters & VacancyAlertFilters;
  const parts: Part[] = [{}];
  if (f.q?.trim()) parts.push({ q: f.q });
  if (f.country) parts.push({ country: f.country });
  if (f.category && f.category !== 'all') parts.push({ category: f.category });
  if (kind === 'vacancies' && f.experience) parts.push({ experience: f.experience });
  if (kind === 'services' && f.near) {
    const { lat, lng, radiusKm } = f.near;
    parts.push({ near: { lat, lng, radiusKm, label: '' } });
  }
  return parts;
}

const partKey = (p: Part) => JSON.stringify(p);

/** The search conditions of one part: the public search's own. */
async function partWhere(db: Db, kind: AlertKind, part: Part, texts: TextQueries): Promise<SQL> {
  const tq = await textQueryOf(db, part.q, texts);
  if (kind === 'services') {
    const near = part.near
      ? { near: { lat: part.near.lat, lng: part.near.lng }, radiusKm: part.near.radiusKm }
      : {};
    const query = { q: part.q, country: part.country, category: part.category ?? 'all', ...near };
    return (await serviceMatch(db, query, false, tq)).where;
  }
  const query = {
    q: part.q,
    country: part.country,
    category: part.category ?? 'all',
    experience: part.experience,
    openOnly: true,
  };
  return (await vacancyMatch(db, query, tq)).where;
}

/** The ids of a part's matches among the new items. */
type PartMatches = Map<string, Set<string>>;

/**
 * Some parts' matches among the new items, given their conditions (`wheres`, partWhere: built
 * before, as their look-ups are queries of their own): one statement, each part a `UNION ALL`
 * branch over the new rows (read once, by id). A read: no transaction.
 */
async function matchParts(
  db: Db,
  kind: AlertKind,
  parts: Part[],
  wheres: SQL[],
  candidates: string[],
  into: PartMatches,
): Promise<void> {
  for (const p of parts) into.set(partKey(p), new Set());
  if (!candidates.length || !parts.length) return;
  const table = kind === 'services' ? services : vacancies;
  const name = sql.identifier(kind);
  const branches = parts.map(
    (_, j) => sql`SELECT ${j}::int AS g, ${table.id} AS id FROM ${name} WHERE ${wheres[j]!}`,
  );
  // The new rows, under the table's own name (the search's conditions name it): read once.
  const statement = sql`WITH ${name} AS MATERIALIZED (
      SELECT * FROM ${table} WHERE ${table.id} = ANY(${uuidArray(candidates)}::uuid[]))
    ${sql.join(branches, sql` UNION ALL `)}`;
  for (const r of rowsOf<{ g: number; id: string }>(await db.execute(statement))) {
    into.get(partKey(parts[Number(r.g)]!))!.add(r.id);
  }
}

/**
 * Matches of each distinct search (by filterKey) among the new items, newest first: the
 * intersection of its parts' matches. Parts not matched yet are matched first,
 * PARTS_PER_STATEMENT per statement, a turn of the event loop between two (through `tx`, a
 * batch's transaction, when given: no turn then).
 */
async function matchSearches(
  db: Db,
  kind: AlertKind,
  searches: Map<string, ServiceAlertFilters | VacancyAlertFilters>,
  candidates: Map<string, number>,
  state: { parts: PartMatches; texts: TextQueries; matches: Map<string, string[]> },
  tx?: Db,
): Promise<void> {
  const partsByKey = new Map<string, Part[]>();
  const missing = new Map<string, Part>();
  for (const [key, filters] of searches) {
    if (state.matches.has(key)) continue;
    const parts = partsOf(kind, filters);
    partsByKey.set(key, parts);
    for (const p of parts) if (!state.parts.has(partKey(p))) missing.set(partKey(p), p);
  }
  const ids = [...candidates.keys()];
  const parts = [...missing.values()];
  const wheres = async (slice: Part[], from: Db) => {
    const all: SQL[] = [];
    for (const p of slice) all.push(await partWhere(from, kind, p, state.texts));
    return all;
  };
  for (let i = 0; i < parts.length; i += PARTS_PER_STATEMENT) {
    const slice = parts.slice(i, i + PARTS_PER_STATEMENT);
    const conditions = await wheres(slice, tx ?? db);
    await matchParts(tx ?? db, kind, slice, conditions, ids, state.parts);
    if (!tx) await yieldToRequests();
  }
  const newest = (a: string, b: string) =>
    candidates.get(b)! - candidates.get(a)! || (a < b ? -1 : a > b ? 1 : 0);
  let n = 0;
  for (const [key, parts] of partsByKey) {
    const sets = parts.map((p) => state.parts.get(partKey(p))!).sort((a, b) => a.size - b.size);
    const [smallest, ...rest] = sets;
    const ids = [...smallest!].filter((id) => rest.every((s) => s.has(id)));
    state.matches.set(key, ids.sort(newest));
    if (!tx && ++n % 200 === 0) await yieldToRequests();
  }
}

/** What a digest shows of each item, by id. */
async function itemDetails(
  db: Db,
  kind: AlertKind,
  ids: string[],
): Promise<Map<string, { name: string; detail: string; path: string }>> {
  if (!ids.length) return new Map();
  const list = sql`(SELECT unnest(${uuidArray(ids)}::uuid[]))`;
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

/** Unconfirmed subscriptions are deleted this long after they were made (nothing was sent). */
export const UNCONFIRMED_TTL_MS = 7 * 24 * 60 * 60_000;

/** Deletes the subscriptions left unconfirmed for UNCONFIRMED_TTL_MS; how many. */
export async function purgeUnconfirmed(db: Db, now: Date): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`WITH gone AS (DELETE FROM alert_subscriptions
        WHERE confirmed_at IS NULL AND created_at < ${new Date(
          now.getTime() - UNCONFIRMED_TTL_MS,
        ).toISOString()}::timestamptz
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`),
  );
  return row?.n ?? 0;
}

/**
 * One run: the unconfirmed subscriptions past their week are deleted, then every subscription
 * whose period has ended gets its digest (when something is new) and its period moved on. Safe
 * to run at once in several processes.
 */
export async function runDigests(o: DigestOptions): Promise<DigestRunResult> {
  const now = (o.now ?? (() => new Date()))();
  const total: DigestRunResult = {
    subscriptions: 0,
    mails: 0,
    pairs: 0,
    purged: await purgeUnconfirmed(o.db, now),
  };
  for (const kind of ['services', 'vacancies'] as const) {
    const r = await runKind(o, kind, now);
    total.subscriptions += r.subscriptions;
    total.mails += r.mails;
    total.pairs += r.pairs;
  }
  return total;
}

const parsed = (filters: Claimed['filters'] | string): Claimed['filters'] =>
  typeof filters === 'string' ? JSON.parse(filters) : filters;

async function runKind(o: DigestOptions, kind: AlertKind, now: Date) {
  const { db } = o;
  const result = { subscriptions: 0, mails: 0, pairs: 0 };
  const [first] = rowsOf<{ since: string | null }>(
    await db.execute(sql`SELECT min(${sinceOf})::text AS since
      FROM alert_subscriptions WHERE ${due(kind, now)}`),
  );
  if (!first?.since) return result;
  // Computed once per run: the new items, their details, and each search's matches.
  const candidates = await newItems(db, kind, first.since);
  const details = await itemDetails(db, kind, [...candidates.keys()]);
  const state = { parts: new Map(), texts: new Map(), matches: new Map<string, string[]>() };
  /** Each search's lines and link in a language, once per run. */
  const searches = new Map<string, { lines: string[]; url: string }>();
  const batchSize = o.batchSize ?? DIGEST_BATCH;
  // Every distinct search of the due subscriptions, matched before the first batch.
  const distinct = new Map<string, Claimed['filters']>();
  for (const r of rowsOf<{ filters: Claimed['filters'] | string }>(
    await db.execute(sql`SELECT DISTINCT filters FROM alert_subscriptions WHERE ${due(kind, now)}`),
  )) {
    const filters = parsed(r.filters);
    distinct.set(filterKey(filters), filters);
  }
  await matchSearches(db, kind, distinct, candidates, state);
  /** A search's new matches after a time: the same for the many that share both. */
  const newSince = new Map<string, string[]>();
  /** The last id claimed: each batch goes on from there, in the order of the ids. */
  let after: string | null = null;

  for (;;) {
    await yieldToRequests();
    const done = await db.transaction(async (tx) => {
      const claimed = rowsOf<Claimed>(
        await tx.execute(sql`
          SELECT id, email, locale, filters, (${sinceOf})::text AS since
          FROM alert_subscriptions
          WHERE ${due(kind, now)} ${after ? sql`AND id > ${after}::uuid` : sql``}
          ORDER BY id LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`),
      ).map((r) => ({ ...r, filters: parsed(r.filters) }));
      if (!claimed.length) return true;

      // A search changed since the run began (its subscription's filters were edited): matched now.
      const missing = new Map<string, Claimed['filters']>();
      for (const c of claimed) {
        const key = filterKey(c.filters);
        if (!state.matches.has(key)) missing.set(key, c.filters);
      }
      await matchSearches(db, kind, missing, candidates, state, tx as unknown as Db);

      // Each subscription's new matches, the newest first.
      const news = claimed.map((c) => {
        const since = new Date(c.since).getTime();
        const key = `${since} ${filterKey(c.filters)}`;
        let items = newSince.get(key);
        if (!items) {
          items = state.matches
            .get(filterKey(c.filters))!
            .filter((i) => candidates.get(i)! > since && details.has(i));
          newSince.set(key, items);
        }
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
                FROM unnest(${uuidArray(maybeMailed.map((p) => p[0]!))}::uuid[],
                            ${uuidArray(maybeMailed.map((p) => p[1]!))}::uuid[]) AS p(s, i)
                JOIN alert_deliveries d ON d.subscription_id = p.s
                  AND d.item_kind = ${kind} AND d.item_id = p.i`),
            ).map((r) => `${r.s} ${r.i}`)
          : [],
      );
      // The first DIGEST_ITEM_CAP of what was not mailed before are listed. Those the next
      // period's look-back reaches (new within DIGEST_LOOKBACK_MS of now) are recorded.
      const fresh = new Map<string, string[]>();
      const pairs: [string, string][] = [];
      const reachedAgain = (i: string) => candidates.get(i)! > now.getTime() - DIGEST_LOOKBACK_MS;
      for (const { c, items } of news) {
        const unmailed = before.size ? items.filter((i) => !before.has(`${c.id} ${i}`)) : items;
        if (!unmailed.length) continue;
        fresh.set(c.id, unmailed);
        for (const i of unmailed.slice(0, DIGEST_ITEM_CAP)) {
          if (reachedAgain(i)) pairs.push([c.id, i]);
        }
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

      let listedPairs = 0;
      const mails = [];
      for (const [n, c] of claimed.entries()) {
        // Built a few at a time: the requests that need no database answer meanwhile.
        if (n && n % MAILS_PER_TURN === 0) await yieldToRequests();
        const all = fresh.get(c.id);
        if (!all) continue;
        const listed = all
          .slice(0, DIGEST_ITEM_CAP)
          .filter((i) => !reachedAgain(i) || recorded.has(`${c.id} ${i}`))
          .map((i) => details.get(i)!);
        if (!listed.length) continue;
        listedPairs += listed.length;
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
        mails.push({
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
        });
      }
      // Every digest of the batch is queued here, in the transaction that claimed it.
      await o.outbox.enqueueMany(tx, 'alertDigest', mails);
      // …and its push to each device of the alert (alerts/push.ts).
      await enqueueAlertPushes(tx, mails);
      await tx.execute(sql`
        UPDATE alert_subscriptions SET last_digest_at = ${now.toISOString()}::timestamptz
        WHERE id = ANY(${uuidArray(claimed.map((c) => c.id))}::uuid[])`);
      result.subscriptions += claimed.length;
      result.mails += mails.length;
      result.pairs += listedPairs;
      after = claimed.at(-1)!.id;
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
