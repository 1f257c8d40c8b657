import type {
  CategoryFilter,
  CategoryKey,
  ServicePage,
  ServiceSearchQuery,
  ServiceSummary,
  Vacancy,
  VacancySearchQuery,
} from '@poruch/core';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { services, vacancies } from '../db/schema.js';
import { buildTextQuery, rankExpression } from './searchQuery.js';

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
  if (query.sort === 'distance' && distance) {
    orderBy = [sql`${distance} ASC NULLS LAST`, ...(rank ? [sql`${rank} DESC`] : []), ...newest];
  } else if (query.sort === 'newest' || !rank) {
    orderBy = newest;
  } else {
    orderBy = [sql`${rank} DESC`, ...newest];
  }

  // Two steps: the page of ids (narrow rows, so ranking and counting thousands of matches stays
  // in memory), then the columns of those ids only.
  const hits = await db
    .select({
      id: services.id,
      distanceKm: distance ?? sql<null>`NULL::float8`,
      // With a text query every match is ranked anyway, so counting them in the same pass is
      // free; without one the first page comes off an index and the count is a separate query.
      total: rank ? sql<number>`count(*) OVER ()` : sql<null>`NULL::int`,
    })
    .from(services)
    .where(where)
    .orderBy(...orderBy)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = hits[0]?.total != null ? Number(hits[0].total) : undefined;
  if (total === undefined) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)` })
      .from(services)
      .where(where);
    total = Number(counted?.n ?? 0);
  }
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
  return { items, total, page, pageSize };
}

/**
 * Public vacancy search over approved services. `q` is full-text (same machinery as services)
 * over the vacancy's name (weighted highest), requirements and description, and its service's
 * name. Filters: country and category of the service, experience (exact), openOnly (default
 * true), serviceId. Sorted by relevance with `q`, else newest first.
 */
export async function searchVacancies(db: Db, query: VacancySearchQuery): Promise<VacancyPage> {
  const { page, pageSize } = query;
  const tq = await buildTextQuery(db, query.q);
  const conditions: (SQL | undefined)[] = [
    eq(services.status, 'approved'),
    query.country ? eq(services.countryCode, query.country) : undefined,
    categoryCondition(services.category, query.category),
    query.experience ? eq(vacancies.experience, query.experience) : undefined,
    query.openOnly ? eq(vacancies.isOpen, true) : undefined,
    query.serviceId ? eq(vacancies.serviceId, query.serviceId) : undefined,
  ];
  if (tq) conditions.push(sql`${vacancyDoc} @@ to_tsquery('simple', ${tq.match})`);
  const where = and(...conditions);
  const rank = tq ? rankExpression(vacancyDoc, tq) : undefined;
  const newest = [sql`${vacancies.createdAt} DESC`, sql`${vacancies.id}`];
  const rows = await db
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
      total: rank ? sql<number>`count(*) OVER ()` : sql<null>`NULL::int`,
    })
    .from(vacancies)
    .innerJoin(services, eq(services.id, vacancies.serviceId))
    .where(where)
    .orderBy(...(rank ? [sql`${rank} DESC`, ...newest] : newest))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = rows[0]?.total != null ? Number(rows[0].total) : undefined;
  if (total === undefined) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)` })
      .from(vacancies)
      .innerJoin(services, eq(services.id, vacancies.serviceId))
      .where(where);
    total = Number(counted?.n ?? 0);
  }
  const items: VacancyHit[] = rows.map((r) => ({
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
  return { items, total, page, pageSize };
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
