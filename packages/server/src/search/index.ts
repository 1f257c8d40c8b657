import type { ServicePage, ServiceSearchQuery, Vacancy, VacancySearchQuery } from '@poruch/core';
import type { Db } from '../db/index.js';

/** A vacancy in search results, with its service's name and country. */
export interface VacancyHit extends Vacancy {
  service: { id: string; name: string; countryCode: string; category: string | null };
}

/**
 * Public search over approved services: full-text over name, descriptions, address, city and
 * category labels, typo-tolerant, in both scripts; filters, pagination and total.
 * (Implementation in progress: the search issue.)
 */
export async function searchServices(_db: Db, _query: ServiceSearchQuery): Promise<ServicePage> {
  throw new Error('not implemented yet');
}

/** Public vacancy search over approved services. */
export async function searchVacancies(
  _db: Db,
  _query: VacancySearchQuery,
): Promise<{ items: VacancyHit[]; total: number; page: number; pageSize: number }> {
  throw new Error('not implemented yet');
}
