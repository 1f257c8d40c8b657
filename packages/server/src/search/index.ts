import {
  servicePageSchema,
  vacancyPageSchema,
  type CategoryFilter,
  type CategoryKey,
  type ServicePage,
  type ServiceSearchQuery,
  type ServiceSummary,
  type Vacancy,
  type VacancySearchQuery,
} from '@poruch/core';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { services, vacancies } from '../db/schema.js';
import { cached, cachedJson, type JsonBody } from './cache.js';
import { buildTextQuery, rankExpression, type TextQuery } from './searchQuery.js';

export {
  invalidateSearchCache,
  searchCacheListening,
  setSearchCache,
  stopSearchCache,
  type JsonBody,
} from './cache.js';
export { editDistance } from './editDistance.js';
export { queryTokens, searchKey, transliterate } from './normalize.js';
export { buildTextQuery, lookupWords, type TextQuery } from './searchQuery.js';

/** A vacancy in search results, with its service's id, name, country and category. */
export interface VacancyHit extends Vacancy {
  service: { id: string; name: string; countryCode: string; category: CategoryKey | null };
}

/** A page of vacancy hits and the total. */
export interface VacancyPage {
  items: VacancyHit[];
  total: number;
  /** True when `total` is a lower bound: the matches were counted up to it only. */
  totalIsEstimate?: boolean;
  page: number;
  pageSize: number;
}

/** The search documents: maintained by triggers (migration 0002_search.sql), not in schema.ts. */
const serviceDoc = sql`${services}.search_doc`;
const vacancyDoc = sql`${vacancies}.search_doc`;

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

function categoryCondition(column: typeof services.category, category: CategoryFilter) {
  if (category === 'all') return undefined;
  if (category === 'empty') return isNull(column);
  return eq(column, category);
}

/**
 * How far in longitude (degrees) a circle of `radiusKm` around a point at `lat` reaches: the
 * exact extent of a spherical cap, asin(sin(r/R) / cos(lat)). Undefined when the circle holds a
 * pole (every longitude is in reach).
 */
export function longitudeReach(lat: number, radiusKm: number): number | undefined {
  const dLat = radiusKm / KM_PER_DEGREE;
  const ratio = Math.sin(radiusKm / EARTH_RADIUS_KM) / Math.cos((lat * Math.PI) / 180);
  if (Math.abs(lat) + dLat >= 90 || !(ratio < 1)) return undefined;
  // A hair wider than exact, so rounding never drops a point on the circle.
  return (Math.asin(ratio) * 180) / Math.PI + 1e-9;
}

/** Great-circle distance in km from a point to a service (haversine); `at`: its position. */
function distanceExpression(
  near: { lat: number; lng: number },
  at: { lat: SQL; lng: SQL } = { lat: sql`${services.lat}`, lng: sql`${services.lng}` },
) {
  const lat = sql`${near.lat}::float8`;
  const lng = sql`${near.lng}::float8`;
  return sql<number>`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
      power(sin(radians(${at.lat} - ${lat}) / 2), 2)
      + cos(radians(${lat})) * cos(radians(${at.lat}))
        * power(sin(radians(${at.lng} - ${lng}) / 2), 2)))))`;
}

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
export async function searchServices(db: Db, query: ServiceSearchQuery): Promise<ServicePage> {
  return cached(db, `s${JSON.stringify(query)}`, () => searchServicesUncached(db, query));
}

/**
 * `searchServices` as the route's response: the page checked against `servicePageSchema` and
 * serialised once, then served from the cache as the same bytes (with their ETag) until a write.
 */
export async function searchServicesJson(db: Db, query: ServiceSearchQuery): Promise<JsonBody> {
  return cachedJson(
    db,
    `s${JSON.stringify(query)}`,
    () => searchServicesUncached(db, query),
    (page) => JSON.stringify(servicePageSchema.parse(page)),
  );
}

async function searchServicesUncached(db: Db, query: ServiceSearchQuery): Promise<ServicePage> {
  const { page, pageSize, near, bbox } = query;
  // Over all approved services, the document counts of the query's word bound its matches.
  const unfiltered =
    !query.country &&
    query.category === 'all' &&
    !query.online &&
    !query.hasVacancy &&
    !bbox &&
    !(near && query.radiusKm !== undefined);
  const tq = await buildTextQuery(db, query.q, { countMatches: unfiltered });
  // The filters; a text query adds its match (`where`), which the name tiers of the ranking
  // replace with a match on the name (see rankedPage).
  const filters: (SQL | undefined)[] = [
    eq(services.status, 'approved'),
    query.country ? eq(services.countryCode, query.country) : undefined,
    categoryCondition(services.category, query.category),
    query.online ? eq(services.isOnline, true) : undefined,
    query.hasVacancy ? eq(services.haveVacancy, true) : undefined,
  ];
  if (bbox) {
    filters.push(sql`${services.lat} BETWEEN ${bbox.minLat} AND ${bbox.maxLat}`);
    // A box across the antimeridian arrives with minLng > maxLng.
    filters.push(
      bbox.minLng <= bbox.maxLng
        ? sql`${services.lng} BETWEEN ${bbox.minLng} AND ${bbox.maxLng}`
        : sql`(${services.lng} >= ${bbox.minLng} OR ${services.lng} <= ${bbox.maxLng})`,
    );
  }
  const distance = near ? distanceExpression(near) : undefined;
  if (near && query.radiusKm !== undefined) {
    // The circle's bounding box first (the lat/lng index serves it), then the exact distance.
    const dLat = query.radiusKm / KM_PER_DEGREE;
    filters.push(sql`${services.lat} BETWEEN ${near.lat - dLat} AND ${near.lat + dLat}`);
    const dLng = longitudeReach(near.lat, query.radiusKm);
    if (dLng !== undefined && near.lng - dLng >= -180 && near.lng + dLng <= 180) {
      filters.push(sql`${services.lng} BETWEEN ${near.lng - dLng} AND ${near.lng + dLng}`);
    }
    filters.push(sql`${distance} <= ${query.radiusKm}`);
  }
  const filtered = and(...filters)!;
  const where = tq
    ? and(filtered, sql`${serviceDoc} @@ to_tsquery('simple', ${tq.match})`)!
    : filtered;
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
      distance: distanceCol,
      // Over all approved services (the only case with tq.atLeast): through the GIN index.
      firstMatches: (n) => sql`SELECT m.id, m.doc, m.created_at,
          ${near ? distanceExpression(near, { lat: sql`m.lat`, lng: sql`m.lng` }) : sql`NULL::float8`}
            AS distance_km
        FROM poruch_first_service_matches(to_tsquery('simple', ${tq.match}), ${n}) m`,
      page,
      pageSize,
      rows: (p) => sql`SELECT ${summarySelect}, p.distance_km AS "distanceKm", p.ord
        FROM ${p} JOIN ${services} ON ${services.id} = p.id`,
    });
  } else {
    const newest: SortKey[] = [
      { by: sql`${services.createdAt}`, dir: sql`DESC` },
      { by: sql`${services.id}`, dir: sql`ASC` },
    ];
    const byDistance = query.sort === 'distance' && distance;
    const orderBy: SortKey[] = byDistance
      ? [
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
  const items: ServiceSummary[] = result.rows.map(({ createdAt, distanceKm, ...row }) => ({
    ...row,
    createdAt: toIso(createdAt),
    ...(near ? { distanceKm: distanceKm == null ? null : Number(distanceKm) } : {}),
  }));
  return { items, ...totalOf(result.count), page, pageSize };
}

/** The columns of a ServiceSummary, named as its fields (for raw statements). */
const summarySelect = sql`${services.id} AS id, ${services.name} AS name,
  ${services.countryCode} AS "countryCode", ${services.category} AS category,
  ${services.address} AS address, ${services.lat} AS lat, ${services.lng} AS lng,
  ${services.descriptionUa} AS "descriptionUa", ${services.descriptionOther} AS "descriptionOther",
  ${services.website} AS website, ${services.phone} AS phone, ${services.isOnline} AS "isOnline",
  ${services.haveVacancy} AS "haveVacancy", ${services.isPartner} AS "isPartner",
  ${services.usedCount} AS "usedCount", ${services.createdAt} AS "createdAt"`;

type SummaryRow = Omit<ServiceSummary, 'createdAt' | 'distanceKm'> & {
  createdAt: Date | string;
  distanceKm: number | null;
};

/**
 * Public vacancy search over approved services. `q` is full-text (same machinery as services)
 * over the vacancy's name (weighted highest), requirements and description, and its service's
 * name. Filters: country and category of the service, experience (exact), openOnly (default
 * true), serviceId. Sorted by relevance with `q`, else newest first.
 */
export async function searchVacancies(db: Db, query: VacancySearchQuery): Promise<VacancyPage> {
  return cached(db, `v${JSON.stringify(query)}`, () => searchVacanciesUncached(db, query));
}

/** `searchVacancies` as the route's response (see `searchServicesJson`). */
export async function searchVacanciesJson(db: Db, query: VacancySearchQuery): Promise<JsonBody> {
  return cachedJson(
    db,
    `v${JSON.stringify(query)}`,
    () => searchVacanciesUncached(db, query),
    (page) => JSON.stringify(vacancyPageSchema.parse(page)),
  );
}

async function searchVacanciesUncached(db: Db, query: VacancySearchQuery): Promise<VacancyPage> {
  const { page, pageSize } = query;
  const tq = await buildTextQuery(db, query.q);
  // The service's status, country and category are copied onto the vacancy (migration 0004).
  const filters: (SQL | undefined)[] = [
    sql`${vacancies}.service_status = 'approved'`,
    query.country ? sql`${vacancies}.service_country = ${query.country}` : undefined,
    query.category === 'all'
      ? undefined
      : query.category === 'empty'
        ? sql`${vacancies}.service_category IS NULL`
        : sql`${vacancies}.service_category = ${query.category}`,
    query.experience ? eq(vacancies.experience, query.experience) : undefined,
    query.openOnly ? eq(vacancies.isOpen, true) : undefined,
    query.serviceId ? eq(vacancies.serviceId, query.serviceId) : undefined,
  ];
  const filtered = and(...filters)!;
  const where = tq
    ? and(filtered, sql`${vacancyDoc} @@ to_tsquery('simple', ${tq.match})`)!
    : filtered;
  // The page's vacancies with their services (`p`: ids in page order, `ord`).
  const rowsOf = (p: SQL) => sql`SELECT ${vacancySelect}, p.ord
    FROM ${p} JOIN ${vacancies} ON ${vacancies.id} = p.id
    JOIN ${services} ON ${services.id} = ${vacancies.serviceId}`;
  const result = tq
    ? await rankedPage<VacancyRow>(db, {
        table: vacancies,
        filtered,
        where,
        doc: vacancyDoc,
        nameDoc: sql`${vacancies}.name_doc`,
        tq,
        rank: rankExpression(vacancyDoc, tq),
        distance: sql`NULL::float8`,
        page,
        pageSize,
        rows: rowsOf,
      })
    : await plainPage<VacancyRow>(db, {
        table: vacancies,
        where,
        orderBy: [
          { by: sql`${vacancies.createdAt}`, dir: sql`DESC` },
          { by: sql`${vacancies.id}`, dir: sql`ASC` },
        ],
        cap: TOTAL_CAP,
        page,
        pageSize,
        rows: rowsOf,
      });
  const items: VacancyHit[] = result.rows.map((r) => ({
    id: r.id,
    serviceId: r.serviceId,
    name: r.name,
    requirements: r.requirements,
    description: r.description,
    salary: r.salary,
    experience: r.experience,
    isOpen: r.isOpen,
    createdAt: toIso(r.createdAt),
    updatedAt: toIso(r.updatedAt),
    service: {
      id: r.serviceId,
      name: r.serviceName,
      countryCode: r.serviceCountryCode,
      category: r.serviceCategory,
    },
  }));
  return { items, ...totalOf(result.count), page, pageSize };
}

/** The columns of a VacancyHit and its service, named as its fields (for raw statements). */
const vacancySelect = sql`${vacancies.id} AS id, ${vacancies.serviceId} AS "serviceId",
  ${vacancies.name} AS name, ${vacancies.requirements} AS requirements,
  ${vacancies.description} AS description, ${vacancies.salary} AS salary,
  ${vacancies.experience} AS experience, ${vacancies.isOpen} AS "isOpen",
  ${vacancies.createdAt} AS "createdAt", ${vacancies.updatedAt} AS "updatedAt",
  ${services.name} AS "serviceName", ${services.countryCode} AS "serviceCountryCode",
  ${services.category} AS "serviceCategory"`;

type VacancyRow = Omit<VacancyHit, 'createdAt' | 'updatedAt' | 'service'> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  serviceName: string;
  serviceCountryCode: string;
  serviceCategory: CategoryKey | null;
};

/**
 * Totals of text queries (and of vacancy listings) are counted up to this many matches; beyond
 * it the page says `total: TOTAL_CAP, totalIsEstimate: true` ("1000+").
 */
export const TOTAL_CAP = 1000;

interface Count {
  n: number;
  capped: boolean;
}

function totalOf(count: Count): { total: number; totalIsEstimate?: true } {
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
interface SortKey {
  by: SQL;
  dir: SQL;
}

interface PlainOptions {
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
async function plainPage<R>(db: Db, o: PlainOptions): Promise<{ rows: R[]; count: Count }> {
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

interface RankedOptions {
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
  distance: SQL;
  page: number;
  pageSize: number;
  /** The page's rows from `p` (id, rank, created_at, distance_km, ord). */
  rows: (p: SQL) => SQL;
  /**
   * The first `n` matches (id, doc, created_at, distance_km) read through the GIN index, for a
   * query whose matches need no count (`tq.atLeast`); see INDEX_SHARE.
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
 * prefix's matches is often 2 to 4 times too high.
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
async function rankedPage<R>(db: Db, o: RankedOptions): Promise<{ rows: R[]; count: Count }> {
  const offset = (o.page - 1) * o.pageSize;
  const rankLimit = Math.max(RANK_LIMIT, offset + o.pageSize);
  const cap = Math.max(TOTAL_CAP, offset + o.pageSize);
  const known = (o.tq.atLeast ?? 0) > cap;
  // A word in fewer than INDEX_SHARE of the services: the first candidates are found faster
  // through the GIN index than by reading rows in order until enough match.
  const byIndex =
    known && o.firstMatches && (o.tq.share ?? 0) > 0 && (o.tq.share ?? 0) < INDEX_SHARE;
  const t = o.table;
  const exactAll = o.tq.tokens.join(' & ');
  // Each name tier ranks the rows it reads (no second visit); UNION drops the rows found twice.
  const cols = sql`${t.id} AS id, ${o.rank} AS rank, ${t.createdAt} AS created_at,
    ${o.distance} AS distance_km`;
  // A one-time filter: the name tiers run only when tier 1 was cut off.
  const more = sql`(SELECT n FROM matched) > ${rankLimit}`;
  return pageRows<R>(
    db,
    sql`WITH hits AS MATERIALIZED (${
      byIndex
        ? o.firstMatches!(rankLimit + 1)
        : sql`SELECT ${t.id} AS id, ${o.doc} AS doc, ${t.createdAt} AS created_at,
            ${o.distance} AS distance_km
          FROM ${t} WHERE ${o.where} LIMIT ${known ? rankLimit + 1 : cap + 1}`
    }), matched AS MATERIALIZED (
      ${known ? sql`SELECT ${cap + 1}::int AS n` : sql`SELECT count(*)::int AS n FROM hits`}
    ), p AS MATERIALIZED (
      SELECT x.*, row_number() OVER () AS ord FROM (
        (SELECT h.id, ${rankExpression(sql`h.doc`, o.tq)} AS rank, h.created_at, h.distance_km
           FROM (SELECT * FROM hits LIMIT ${rankLimit}) h)
        UNION
        (SELECT ${cols} FROM ${t} WHERE ${more} AND ${o.filtered}
           AND ${o.nameDoc} @@ to_tsquery('simple', ${exactAll}) LIMIT ${rankLimit})
        UNION
        (SELECT ${cols} FROM ${t} WHERE ${more} AND ${o.filtered}
           AND ${o.nameDoc} @@ to_tsquery('simple', ${o.tq.match}) LIMIT ${rankLimit})
        ORDER BY rank DESC, created_at DESC, id LIMIT ${o.pageSize} OFFSET ${offset}) x
    )
    SELECT m.n AS matched, r.* FROM matched m LEFT JOIN (${o.rows(sql`p`)}) r ON true
    ORDER BY r.ord`,
    cap,
  );
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
