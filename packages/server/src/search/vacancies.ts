import {
  vacancyPageSchema,
  type CategoryKey,
  type VacancyHit,
  type VacancyPage,
  type VacancySearchQuery,
} from '@poruch/core';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { services, vacancies } from '../db/schema.js';
import { cachedSearch } from './cache.js';
import { categoryCondition, plainPage, rankedPage, toIso, totalOf, TOTAL_CAP } from './pages.js';
import { buildTextQuery, rankExpression, type TextQuery } from './searchQuery.js';
import { vacancyPubliclyVisible } from './visibility.js';

/** The search document: maintained by triggers (migration 0002_search.sql), not in schema.ts. */
const vacancyDoc = sql`${vacancies}.search_doc`;

const cachedVacancies = cachedSearch('v', searchVacanciesUncached, vacancyPageSchema, {
  scope: (query) => ({ country: query.country, text: !!query.q, vacancies: true }),
});

/**
 * Public vacancy search over approved services. `q` is full-text (same machinery as services)
 * over the vacancy's name (weighted highest), requirements and description, and its service's
 * name. Filters: country and category of the service, experience (exact), openOnly (default
 * true), serviceId. Sorted by relevance with `q`, else newest first.
 */
export const searchVacancies = cachedVacancies.page;

/** `searchVacancies` as the route's response (see `searchServicesJson`). */
export const searchVacanciesJson = cachedVacancies.json;

/** The filters of a vacancy search, with or without its paging. */
export type VacancyMatchQuery = Pick<VacancySearchQuery, 'q' | 'country' | 'category'> &
  Partial<Pick<VacancySearchQuery, 'experience' | 'openOnly' | 'serviceId'>>;

/**
 * A vacancy search's conditions: `filtered` (the filters), `where` (the filters and the text
 * match) and the text query (null when `q` has no word to match). Alert digests match with it too.
 */
export async function vacancyMatch(
  db: Db,
  query: VacancyMatchQuery,
  /** The text query of `q`, when the caller has built it already (alert digests reuse it). */
  textQuery?: TextQuery | null,
) {
  const tq = textQuery !== undefined ? textQuery : await buildTextQuery(db, query.q);
  // The service's status, country and category are copied onto the vacancy (migration 0004).
  const filters: (SQL | undefined)[] = [
    vacancyPubliclyVisible(),
    query.country ? sql`${vacancies}.service_country = ${query.country}` : undefined,
    categoryCondition(sql`${vacancies}.service_category`, query.category),
    query.experience ? eq(vacancies.experience, query.experience) : undefined,
    query.openOnly ? eq(vacancies.isOpen, true) : undefined,
    query.serviceId ? eq(vacancies.serviceId, query.serviceId) : undefined,
  ];
  const filtered = and(...filters)!;
  const where = tq
    ? and(filtered, sql`${vacancyDoc} @@ to_tsquery('simple', ${tq.match})`)!
    : filtered;
  return { tq, filtered, where };
}

async function searchVacanciesUncached(db: Db, query: VacancySearchQuery): Promise<VacancyPage> {
  const { page, pageSize } = query;
  const { tq, filtered, where } = await vacancyMatch(db, query);
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
