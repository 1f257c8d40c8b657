import type { CategoryFilter } from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import type { services, vacancies } from '../db/schema.js';
import { rankExpression, type TextQuery } from './searchQuery.js';

/**
 * The SQL page builders both searches share: a page in a given order with its count, or a
 * relevance-ranked page of a text query, each in one statement.
 */

/** The category filter on a column: every category, none (`empty`) or one key. */
export function categoryCondition(column: SQL, category: CategoryFilter): SQL | undefined {
  if (category === 'all') return undefined;
  if (category === 'empty') return sql`${column} IS NULL`;
  return sql`${column} = ${category}`;
}

/**
 * Totals of text queries (and of vacancy listings) are counted up to this many matches; beyond
 * it the page says `total: TOTAL_CAP, totalIsEstimate: true` ("1000+").
 */
export const TOTAL_CAP = 1000;

export interface Count {
  n: number;
  capped: boolean;
}

export function totalOf(count: Count): { total: number; totalIsEstimate?: true } {
  return count.capped ? { total: count.n, totalIsEstimate: true } : { total: count.n };
}

/**
 * Rows of one statement that also carries the count: `matched` on every row, and one row of
 * NULLs besides it when the page is empty (past the end, or nothing matched).
 */
async function pageRows<R>(
  db: Db,
  statement: SQL,
  cap: number | undefined,
): Promise<{ rows: R[]; count: Count }> {
  const res = await db.execute(statement);
  const all = (res as unknown as { rows: (R & { matched: number; ord: unknown })[] }).rows;
  const n = Number(all[0]?.matched ?? 0);
  const rows = all
    .filter((r) => r.ord != null)
    .map(({ matched: _matched, ord: _ord, ...row }) => row as unknown as R);
  return {
    rows,
    count: cap !== undefined && n > cap ? { n: cap, capped: true } : { n, capped: false },
  };
}

/** One key of a page's order: an expression and its direction (`ASC`, `DESC`, `ASC NULLS LAST`). */
export interface SortKey {
  by: SQL;
  dir: SQL;
}

export interface PlainOptions {
  table: typeof services | typeof vacancies;
  where: SQL;
  orderBy: SortKey[];
  /**
   * Read the matches once, with their sort keys, for the page and the count (when the order
   * needs every match anyway and they are bounded, as within a radius); else the page and the
   * count are two reads, each of which can stop early.
   */
  scanOnce?: boolean;
  /** Count at most this many matches (else exactly). */
  cap: number | undefined;
  /** The matches are known to be at least this many (no count when more than `cap`). */
  atLeast?: number;
  page: number;
  pageSize: number;
  /** The page's rows from `p` (the ids in page order, with `ord`). */
  rows: (p: SQL) => SQL;
}

/**
 * A page in a given order (newest, distance) and its count, in one statement: the page of ids
 * (narrow rows, an index can serve the order) numbered in order, then the rows of those ids.
 */
export async function plainPage<R>(db: Db, o: PlainOptions): Promise<{ rows: R[]; count: Count }> {
  const t = o.table;
  const window = sql`LIMIT ${o.pageSize} OFFSET ${(o.page - 1) * o.pageSize}`;
  if (o.scanOnce) {
    const keys = o.orderBy.map((k, i) => sql`${k.by} AS ${sql.raw(`k${i}`)}`);
    const order = o.orderBy.map((k, i) => sql`${sql.raw(`m.k${i}`)} ${k.dir}`);
    return pageRows<R>(
      db,
      sql`WITH m AS MATERIALIZED (
        SELECT ${t.id} AS id, ${sql.join(keys, sql`, `)} FROM ${t} WHERE ${o.where}
      ), p AS MATERIALIZED (
        SELECT x.id, row_number() OVER () AS ord FROM (
          SELECT m.id FROM m ORDER BY ${sql.join(order, sql`, `)} ${window}) x
      )
      SELECT c.n AS matched, r.* FROM (SELECT count(*)::int AS n FROM m) c
        LEFT JOIN (${o.rows(sql`p`)}) r ON true
      ORDER BY r.ord`,
      o.cap,
    );
  }
  const count =
    o.cap === undefined
      ? sql`SELECT count(*)::int AS n FROM ${t} WHERE ${o.where}`
      : (o.atLeast ?? 0) > o.cap
        ? sql`SELECT ${o.cap + 1}::int AS n`
        : sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${t} WHERE ${o.where}
             LIMIT ${o.cap + 1}) t`;
  const order = o.orderBy.map((k) => sql`${k.by} ${k.dir}`);
  return pageRows<R>(
    db,
    sql`WITH p AS MATERIALIZED (
      SELECT x.id, row_number() OVER () AS ord FROM (
        SELECT ${t.id} AS id FROM ${t} WHERE ${o.where} ORDER BY ${sql.join(order, sql`, `)}
        ${window}) x
    )
    SELECT c.n AS matched, r.* FROM (${count}) c LEFT JOIN (${o.rows(sql`p`)}) r ON true
    ORDER BY r.ord`,
    o.cap,
  );
}

export interface RankedOptions {
  table: typeof services | typeof vacancies;
  /** The filters without the text match. */
  filtered: SQL;
  /** The filters and the text match. */
  where: SQL;
  /** The search document. */
  doc: SQL;
  nameDoc: SQL;
  tq: TextQuery;
  rank: SQL;
  /** A boolean over the table's row: true ranks the row below every false one, whatever its rank. */
  demoted?: SQL;
  distance: SQL;
  page: number;
  pageSize: number;
  /** The page's rows from `p` (id, rank, created_at, distance_km, ord). */
  rows: (p: SQL) => SQL;
  /**
   * The first `n` matches (id, doc, created_at, distance_km) read through the GIN index, for a
   * query over all approved services whose matches are few (`tq.share`, `tq.shareAtMost`); see
   * INDEX_SHARE.
   */
  firstMatches?: (n: number) => SQL;
}

/**
 * Candidates ranked per tier of a relevance-sorted text query (see rankedPage); the matches are
 * still counted up to TOTAL_CAP.
 */
export const RANK_LIMIT = 300;

/**
 * Below this share of the services, the candidates of a word whose matches need no count are
 * read through the GIN index (measured at 100k: a word in 3.5 % of them, 2.2 against 9.5 ms;
 * in 11 %, 6.4 against 3.3 ms). The planner cannot tell: its estimate of a word's or a
 * prefix's matches is often 2 to 4 times too high. So are the matches of a query whose words'
 * document counts show they are at most this share (`tq.shareAtMost`): a rare prefix, or
 * several words one of which is rare. In order, the table would be read to its end when they
 * are fewer than the count's cap.
 */
const INDEX_SHARE = 0.06;

/**
 * The page of a relevance-sorted text query, ranking a bounded set of candidates instead of
 * every match (a frequent word matches 40% of the catalogue; ranking and counting all of them
 * cost 50-350 ms at 100k), in one statement with the count and the page's rows.
 *
 * One scan reads the matches (id, document, sort columns) up to `cap` + 1, which is the count;
 * when the document counts of the query's word show more matches than `cap` (`tq.atLeast`) it
 * stops at the candidates instead and the count is not made. The candidates, each tier at most
 * `rankLimit` rows: (1) the first matches of that scan, ranked from the documents it copied;
 * then, only when there are more matches than that (else tier 1 holds every match), (2) every
 * query word whole in the name and (3) every word matched (prefix or correction) in the name,
 * found through the name's GIN index. A name match ranks first anyway (weight A), so the top of
 * the ranking is the same as over all matches unless more than `rankLimit` names match, and then
 * the rows ranked are a sample of equally good name matches. The name tiers test the name only:
 * a name that matches makes the document match (the name's words are the document's A words).
 */
export async function rankedPage<R>(
  db: Db,
  o: RankedOptions,
): Promise<{ rows: R[]; count: Count }> {
  const offset = (o.page - 1) * o.pageSize;
  const rankLimit = Math.max(RANK_LIMIT, offset + o.pageSize);
  const cap = Math.max(TOTAL_CAP, offset + o.pageSize);
  const known = (o.tq.atLeast ?? 0) > cap;
  // A word in fewer than INDEX_SHARE of the services, or matches known to be fewer: the first
  // candidates (or matches, up to the count's cap) are found faster through the GIN index than
  // by reading rows in order until enough match.
  const byIndex =
    !!o.firstMatches &&
    ((known && (o.tq.share ?? 0) > 0 && (o.tq.share ?? 0) < INDEX_SHARE) ||
      (o.tq.shareAtMost ?? 1) < INDEX_SHARE);
  const t = o.table;
  const exactAll = o.tq.tokens.join(' & ');
  // Each name tier ranks the rows it reads (no second visit); UNION drops the rows found twice.
  const demoted = o.demoted ?? sql`false`;
  const cols = sql`${t.id} AS id, ${demoted} AS demoted, ${o.rank} AS rank,
    ${t.createdAt} AS created_at, ${o.distance} AS distance_km`;
  // A one-time filter: the name tiers run only when tier 1 was cut off.
  const more = sql`(SELECT n FROM matched) > ${rankLimit}`;
  return pageRows<R>(
    db,
    // The scan reads whether each row is demoted with it; the index's matches do not carry it,
    // so tier 1 looks it up for the rows it ranks.
    sql`WITH hits AS MATERIALIZED (${
      byIndex
        ? sql`SELECT f.*, NULL::boolean AS demoted
            FROM (${o.firstMatches!(known ? rankLimit + 1 : cap + 1)}) f`
        : sql`SELECT ${t.id} AS id, ${o.doc} AS doc, ${t.createdAt} AS created_at,
            ${o.distance} AS distance_km, ${demoted} AS demoted
          FROM ${t} WHERE ${o.where} LIMIT ${known ? rankLimit + 1 : cap + 1}`
    }), matched AS MATERIALIZED (
      ${known ? sql`SELECT ${cap + 1}::int AS n` : sql`SELECT count(*)::int AS n FROM hits`}
    ), p AS MATERIALIZED (
      SELECT x.*, row_number() OVER () AS ord FROM (
        (SELECT h.id,
           coalesce(h.demoted, ${
             o.demoted ? sql`(SELECT ${o.demoted} FROM ${t} WHERE ${t.id} = h.id)` : sql`false`
           }) AS demoted,
           ${rankExpression(sql`h.doc`, o.tq)} AS rank, h.created_at, h.distance_km
           FROM (SELECT * FROM hits LIMIT ${rankLimit}) h)
        UNION
        (SELECT ${cols} FROM ${t} WHERE ${more} AND ${o.filtered}
           AND ${o.nameDoc} @@ to_tsquery('simple', ${exactAll}) LIMIT ${rankLimit})
        UNION
        (SELECT ${cols} FROM ${t} WHERE ${more} AND ${o.filtered}
           AND ${o.nameDoc} @@ to_tsquery('simple', ${o.tq.match}) LIMIT ${rankLimit})
        ORDER BY demoted, rank DESC, created_at DESC, id LIMIT ${o.pageSize} OFFSET ${offset}) x
    )
    SELECT m.n AS matched, r.* FROM matched m LEFT JOIN (${o.rows(sql`p`)}) r ON true
    ORDER BY r.ord`,
    cap,
  );
}

export function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
