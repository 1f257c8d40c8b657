import {
  servicePageSchema,
  type ServicePage,
  type ServiceSearchQuery,
  type ServiceSummary,
} from '@poruch/core';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { services } from '../db/schema.js';
import { cachedSearch, setUsedCounts } from './cache.js';
import { distanceFrom, insideBox, withinRadius } from './geo.js';
import {
  categoryCondition,
  plainPage,
  rankedPage,
  toIso,
  totalOf,
  TOTAL_CAP,
  type Count,
  type SortKey,
} from './pages.js';
import { indexedPage } from './indexedPage.js';
import { buildTextQuery, rankExpression, type TextQuery } from './searchQuery.js';
import { summarySelect, type SummaryRow } from './summary.js';
import { publiclyVisible } from './visibility.js';
import { indexedQuery } from './wordIndex.js';

/** The search document: maintained by triggers (migration 0002_search.sql), not in schema.ts. */
const serviceDoc = sql`${services}.search_doc`;

const cachedServices = cachedSearch('s', searchServicesUncached, servicePageSchema, {
  scope: (query, page) => ({
    country: query.country,
    text: !!query.q,
    vacancies: false,
    ids: page.items.map((i) => i.id),
  }),
  usedCounts: setUsedCounts,
});

/**
 * Public search over approved services.
 *
 * `q` is full-text over the name (weighted highest), both descriptions, the address, the city,
 * the original place and the category's labels, in Cyrillic or Latin (transliterated both
 * ways), case- and accent-folded, with prefix matching and typo correction (1 edit from 4
 * letters, 2 from 8). Filters: country; category (`all`, `empty` or a key); online; hasVacancy;
 * bbox; near with radiusKm. Sorts: relevance (by rank when `q` is given, else newest), newest,
 * distance (needs `near`; without it falls back to relevance). Each item carries `distanceKm`
 * when `near` is given.
 */
export const searchServices = cachedServices.page;

/**
 * `searchServices` as the route's response: the page checked against `servicePageSchema` and
 * serialised once, then served from the cache as the same bytes (with their ETag) until a write.
 */
export const searchServicesJson = cachedServices.json;

/** The filters of a service search, with or without its paging and sort. */
export type ServiceMatchQuery = Pick<ServiceSearchQuery, 'q' | 'country' | 'category'> &
  Partial<
    Pick<ServiceSearchQuery, 'online' | 'hasVacancy' | 'onMap' | 'bbox' | 'near' | 'radiusKm'>
  >;

/**
 * A service search's conditions: `filtered` (the filters) and `where` (the filters and the text
 * match, what the search's total counts), and the text query (null when `q` has no word to match).
 * `countMatches`: over all approved services, the document counts of the query's words bound its
 * matches (`tq.atLeast`, `tq.shareAtMost`).
 */
export async function serviceMatch(
  db: Db,
  query: ServiceMatchQuery,
  countMatches = false,
  /** The text query of `q`, when the caller has built it already (alert digests reuse it). */
  textQuery?: TextQuery | null,
) {
  const tq =
    textQuery !== undefined
      ? textQuery
      : await buildTextQuery(db, query.q, { countMatches, scope: 'services' });
  // The filters; a text query adds its match (`where`), which the name tiers of the ranking
  // replace with a match on the name (see rankedPage).
  const filters: (SQL | undefined)[] = [
    publiclyVisible(),
    query.country ? eq(services.countryCode, query.country) : undefined,
    categoryCondition(sql`${services.category}`, query.category),
    query.online ? eq(services.isOnline, true) : undefined,
    query.hasVacancy ? eq(services.haveVacancy, true) : undefined,
    query.onMap
      ? sql`${services.showOnMap} AND ${services.lat} IS NOT NULL AND ${services.lng} IS NOT NULL`
      : undefined,
  ];
  if (query.bbox) filters.push(insideBox(query.bbox));
  if (query.near && query.radiusKm !== undefined) {
    filters.push(withinRadius(query.near, query.radiusKm));
  }
  const filtered = and(...filters)!;
  const where = tq
    ? and(filtered, sql`${serviceDoc} @@ to_tsquery('simple', ${tq.match})`)!
    : filtered;
  return { tq, filtered, where };
}

/**
 * A text query's page through the word index (wordIndex.ts), sorted by relevance or newest, with
 * the filters the index holds; null when the SQL path answers (no index now, a box, a radius, a
 * distance sort, no word to match).
 */
async function indexedServices(
  db: Db,
  query: ServiceSearchQuery,
): Promise<{ rows: SummaryRow[]; count: Count } | null> {
  const { page, pageSize, near } = query;
  if (!query.q || query.bbox || (near && query.radiusKm !== undefined)) return null;
  const byRank = query.sort === 'relevance' || (query.sort === 'distance' && !near);
  if (!byRank && query.sort !== 'newest') return null;
  const indexed = await indexedQuery(db, query.q);
  if (!indexed?.tq) return null;
  const { index, tq } = indexed;
  return indexedPage({
    index,
    tq,
    filter: query,
    byRank,
    page,
    pageSize,
    cap: byRank ? Math.max(TOTAL_CAP, page * pageSize) : TOTAL_CAP,
    // Distances as the SQL path computes them: one statement, for the page's services only.
    distances: near
      ? async (ids) => {
          const res = await db.execute(sql`
            SELECT ${services.id} AS id, ${distanceFrom(near)} AS "distanceKm" FROM ${services}
             WHERE ${services.id} = ANY(${`{${ids.join(',')}}`}::uuid[])`);
          const rows = (res as unknown as { rows: { id: string; distanceKm: number | null }[] })
            .rows;
          return new Map(rows.map((r) => [r.id, r.distanceKm]));
        }
      : undefined,
  });
}

async function searchServicesUncached(db: Db, query: ServiceSearchQuery): Promise<ServicePage> {
  const { page, pageSize, near, bbox } = query;
  const indexed = await indexedServices(db, query);
  if (indexed) return pageOf(indexed, query);
  // Over all approved services, the document counts of the query's word bound its matches.
  const unfiltered =
    !query.country &&
    query.category === 'all' &&
    !query.online &&
    !query.hasVacancy &&
    !query.onMap &&
    !bbox &&
    !(near && query.radiusKm !== undefined);
  const { tq, filtered, where } = await serviceMatch(db, query, unfiltered);
  const distance = near ? distanceFrom(near) : undefined;
  const rank = tq ? rankExpression(serviceDoc, tq) : undefined;
  const distanceCol = distance ?? sql`NULL::float8`;

  let result: { rows: SummaryRow[]; count: Count };
  if (rank && tq && (query.sort === 'relevance' || (query.sort === 'distance' && !distance))) {
    // Relevance: rank a bounded set of candidates, not every match (see rankedPage).
    result = await rankedPage<SummaryRow>(db, {
      table: services,
      filtered,
      where,
      doc: serviceDoc,
      nameDoc: sql`${services}.name_doc`,
      tq,
      rank,
      demoted: overdue,
      distance: distanceCol,
      // Over all approved services (the only case with tq.atLeast and tq.shareAtMost): through
      // the GIN index.
      firstMatches: (n) => sql`SELECT m.id, m.doc, m.created_at,
          ${near ? distanceFrom(near, { lat: sql`m.lat`, lng: sql`m.lng` }) : sql`NULL::float8`}
            AS distance_km
        FROM poruch_first_service_matches(to_tsquery('simple', ${tq.match}), ${n}) m`,
      page,
      pageSize,
      rows: (p) => sql`SELECT ${summarySelect}, p.distance_km AS "distanceKm", p.ord
        FROM ${p} JOIN ${services} ON ${services.id} = p.id`,
    });
  } else {
    const newest: SortKey[] = [
      { by: overdue, dir: sql`ASC` },
      { by: sql`${services.createdAt}`, dir: sql`DESC` },
      { by: sql`${services.id}`, dir: sql`ASC` },
    ];
    const byDistance = query.sort === 'distance' && distance;
    const orderBy: SortKey[] = byDistance
      ? [
          { by: overdue, dir: sql`ASC` },
          { by: distance, dir: sql`ASC NULLS LAST` },
          ...(rank ? [{ by: rank, dir: sql`DESC` }] : []),
          ...newest,
        ]
      : newest;
    // Without a text query the filters are selective or served by indexes: count exactly. With
    // one, count at most TOTAL_CAP matches.
    result = await plainPage<SummaryRow>(db, {
      table: services,
      where,
      orderBy,
      cap: tq ? TOTAL_CAP : undefined,
      atLeast: tq?.atLeast,
      // Within a radius every match is sorted by distance anyway: read them once for both.
      scanOnce: !!byDistance && query.radiusKm !== undefined,
      page,
      pageSize,
      rows: (p) => sql`SELECT ${summarySelect}, ${distanceCol} AS "distanceKm", p.ord
        FROM ${p} JOIN ${services} ON ${services.id} = p.id`,
    });
  }
  return pageOf(result, query);
}

/** The response page of a search's rows and count. */
function pageOf(
  result: { rows: SummaryRow[]; count: Count },
  { near, page, pageSize }: ServiceSearchQuery,
): ServicePage {
  const items: ServiceSummary[] = result.rows.map(
    ({ createdAt, confirmedAt, distanceKm, ...row }) => ({
      ...row,
      createdAt: toIso(createdAt),
      confirmedAt: confirmedAt === null ? null : toIso(confirmedAt),
      ...(near ? { distanceKm: distanceKm == null ? null : Number(distanceKm) } : {}),
    }),
  );
  return { items, ...totalOf(result.count), page, pageSize };
}

/** Services left unconfirmed after the re-confirmation mail rank below the others. */
const overdue = sql`(${services.confirmation} = 'overdue')`;
