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
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
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
export { buildTextQuery, findCorrections, type TextQuery } from './searchQuery.js';

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

/** Great-circle distance in km from a point to a service (haversine). */
function distanceExpression(near: { lat: number; lng: number }) {
  const lat = sql`${near.lat}::float8`;
  const lng = sql`${near.lng}::float8`;
  return sql<number>`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
      power(sin(radians(${services.lat} - ${lat}) / 2), 2)
      + cos(radians(${lat})) * cos(radians(${services.lat}))
        * power(sin(radians(${services.lng} - ${lng}) / 2), 2)))))`;
}

const summaryColumns = {
  id: services.id,
  name: services.name,
  countryCode: services.countryCode,
  category: services.category,
  address: services.address,
  lat: services.lat,
  lng: services.lng,
  descriptionUa: services.descriptionUa,
  descriptionOther: services.descriptionOther,
  website: services.website,
  phone: services.phone,
  isOnline: services.isOnline,
  haveVacancy: services.haveVacancy,
  isPartner: services.isPartner,
  usedCount: services.usedCount,
  createdAt: services.createdAt,
};

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
  const tq = await buildTextQuery(db, query.q);
  const conditions: (SQL | undefined)[] = [
    eq(services.status, 'approved'),
    query.country ? eq(services.countryCode, query.country) : undefined,
    categoryCondition(services.category, query.category),
    query.online ? eq(services.isOnline, true) : undefined,
    query.hasVacancy ? eq(services.haveVacancy, true) : undefined,
  ];
  if (tq) conditions.push(sql`${serviceDoc} @@ to_tsquery('simple', ${tq.match})`);
  if (bbox) {
    conditions.push(sql`${services.lat} BETWEEN ${bbox.minLat} AND ${bbox.maxLat}`);
    // A box across the antimeridian arrives with minLng > maxLng.
    conditions.push(
      bbox.minLng <= bbox.maxLng
        ? sql`${services.lng} BETWEEN ${bbox.minLng} AND ${bbox.maxLng}`
        : sql`(${services.lng} >= ${bbox.minLng} OR ${services.lng} <= ${bbox.maxLng})`,
    );
  }
  const distance = near ? distanceExpression(near) : undefined;
  if (near && query.radiusKm !== undefined) {
    // A latitude band first (it can use the lat/lng index), then the exact distance.
    const dLat = query.radiusKm / KM_PER_DEGREE;
    conditions.push(sql`${services.lat} BETWEEN ${near.lat - dLat} AND ${near.lat + dLat}`);
    conditions.push(sql`${distance} <= ${query.radiusKm}`);
  }
  const where = and(...conditions);
  const rank = tq ? rankExpression(serviceDoc, tq) : undefined;

  const newest = [sql`${services.createdAt} DESC`, sql`${services.id}`];
  let orderBy: SQL[];
  let rankOrder: SQL | undefined;
  if (query.sort === 'distance' && distance) {
    orderBy = [sql`${distance} ASC NULLS LAST`, ...(rank ? [sql`${rank} DESC`] : []), ...newest];
  } else if (query.sort === 'newest' || !rank) {
    orderBy = newest;
  } else {
    orderBy = [(rankOrder = sql`${rank} DESC`), ...newest];
  }

  // Two steps: the page of ids (narrow rows), then the columns of those ids only.
  let hits: { id: string; distanceKm: number | null }[];
  let counted: Count | undefined;
  if (tq && orderBy[0] === rankOrder) {
    // Relevance: rank a bounded set of candidates, not every match (see rankedCandidates).
    const ranked = await rankedCandidates(db, {
      table: services,
      doc: serviceDoc,
      nameDoc: sql`${services}.name_doc`,
      where,
      tq,
      rank: rank!,
      extra: { distanceKm: distance ?? sql<null>`NULL::float8` },
      page,
      pageSize,
    });
    hits = ranked.hits as unknown as typeof hits;
    counted = ranked.count;
  } else {
    hits = await db
      .select({ id: services.id, distanceKm: distance ?? sql<null>`NULL::float8` })
      .from(services)
      .where(where)
      .orderBy(...orderBy)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  }
  // Without a text query the filters are selective or served by indexes: count exactly. With
  // one, count at most TOTAL_CAP matches.
  counted ??= await countRows(db, sql`${services}`, where, tq ? TOTAL_CAP : undefined);
  const rows = hits.length
    ? await db
        .select(summaryColumns)
        .from(services)
        .where(
          inArray(
            services.id,
            hits.map((h) => h.id),
          ),
        )
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const items: ServiceSummary[] = hits.map((hit) => {
    const { createdAt, ...row } = byId.get(hit.id)!;
    return {
      ...row,
      createdAt: toIso(createdAt),
      ...(near ? { distanceKm: hit.distanceKm == null ? null : Number(hit.distanceKm) } : {}),
    };
  });
  return { items, ...totalOf(counted), page, pageSize };
}

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
  const conditions: (SQL | undefined)[] = [
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
  if (tq) conditions.push(sql`${vacancyDoc} @@ to_tsquery('simple', ${tq.match})`);
  const where = and(...conditions);
  const newest = [sql`${vacancies.createdAt} DESC`, sql`${vacancies.id}`];
  let ids: string[];
  let counted: Count;
  if (tq) {
    const rank = rankExpression(vacancyDoc, tq);
    const ranked = await rankedCandidates(db, {
      table: vacancies,
      doc: vacancyDoc,
      nameDoc: sql`${vacancies}.name_doc`,
      where,
      tq,
      rank,
      extra: {},
      page,
      pageSize,
    });
    ids = ranked.hits.map((h) => h.id);
    counted = ranked.count;
  } else {
    const hits = await db
      .select({ id: vacancies.id })
      .from(vacancies)
      .where(where)
      .orderBy(...newest)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    ids = hits.map((h) => h.id);
    counted = await countRows(db, sql`${vacancies}`, where, TOTAL_CAP);
  }
  const rows = ids.length
    ? await db
        .select({
          id: vacancies.id,
          serviceId: vacancies.serviceId,
          name: vacancies.name,
          requirements: vacancies.requirements,
          description: vacancies.description,
          salary: vacancies.salary,
          experience: vacancies.experience,
          isOpen: vacancies.isOpen,
          createdAt: vacancies.createdAt,
          updatedAt: vacancies.updatedAt,
          serviceName: services.name,
          serviceCountryCode: services.countryCode,
          serviceCategory: services.category,
        })
        .from(vacancies)
        .innerJoin(services, eq(services.id, vacancies.serviceId))
        .where(inArray(vacancies.id, ids))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const items: VacancyHit[] = ids.map((id) => {
    const r = byId.get(id)!;
    return {
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
    };
  });
  return { items, ...totalOf(counted), page, pageSize };
}

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

/** count(*) of the matching rows, or, with a cap, of at most `cap` + 1 of them. */
async function countRows(db: Db, table: SQL, where: SQL | undefined, cap?: number): Promise<Count> {
  const res = await db.execute(
    cap === undefined
      ? sql`SELECT count(*)::int AS n FROM ${table} WHERE ${where ?? sql`true`}`
      : sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE ${where ?? sql`true`}
             LIMIT ${cap + 1}) t`,
  );
  const n = Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  return cap !== undefined && n > cap ? { n: cap, capped: true } : { n, capped: false };
}

interface RankedOptions {
  table: typeof services | typeof vacancies;
  doc: SQL;
  nameDoc: SQL;
  where: SQL | undefined;
  tq: TextQuery;
  rank: SQL;
  extra: Record<string, SQL>;
  page: number;
  pageSize: number;
}

/**
 * The page of a relevance-sorted text query, ranking a bounded set of candidates instead of
 * every match (a frequent word matches 40% of the catalogue; ranking and counting all of them
 * cost 50-350 ms at 100k). The candidates, each tier at most `limit` rows found through a GIN
 * index: (1) every query word whole in the name, (2) every word matched (prefix or correction)
 * in the name, (3) any match. A name match ranks first anyway (weight A), so the top of the
 * ranking is the same as over all matches unless more than `limit` names match, and then the
 * rows ranked are a sample of equally good name matches. When tier 3 finds fewer than `limit`
 * rows it found every match, and the total is exact; otherwise it is `limit`, an estimate.
 */
async function rankedCandidates(db: Db, o: RankedOptions) {
  const offset = (o.page - 1) * o.pageSize;
  const limit = Math.max(TOTAL_CAP, offset + o.pageSize);
  const where = o.where ?? sql`true`;
  const t = o.table;
  const exactAll = o.tq.tokens.join(' & ');
  const extraCols = Object.entries(o.extra).map(([k, v]) => sql`, ${v} AS ${sql.identifier(k)}`);
  // Each tier ranks the rows it reads (no second visit); UNION drops the rows found twice.
  const cols = sql`${t.id} AS id, ${o.rank} AS rank${sql.join(extraCols, sql``)}, ${t.createdAt} AS created_at`;
  const res = await db.execute(sql`
    WITH any_match AS MATERIALIZED (
      SELECT ${cols} FROM ${t} WHERE ${where} LIMIT ${limit + 1}
    )
    SELECT c.*, (SELECT count(*) FROM any_match)::int AS matched FROM (
      SELECT * FROM any_match
      UNION
      (SELECT ${cols} FROM ${t}
        WHERE ${where} AND ${o.nameDoc} @@ to_tsquery('simple', ${exactAll}) LIMIT ${limit})
      UNION
      (SELECT ${cols} FROM ${t}
        WHERE ${where} AND ${o.nameDoc} @@ to_tsquery('simple', ${o.tq.match}) LIMIT ${limit})
    ) c
    ORDER BY c.rank DESC, c.created_at DESC, c.id
    LIMIT ${o.pageSize} OFFSET ${offset}`);
  const rows = (
    res as unknown as { rows: ({ id: string; matched: number } & Record<string, unknown>)[] }
  ).rows;
  let count: Count;
  if (rows.length) {
    const matched = Number(rows[0]!.matched);
    count = matched > limit ? { n: limit, capped: true } : { n: matched, capped: false };
  } else {
    // Past the last page (or nothing matched): count on its own.
    count = await countRows(db, sql`${t}`, o.where, limit);
  }
  return { hits: rows, count };
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
