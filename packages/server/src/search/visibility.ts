import type { ConfirmationState, ServiceStatus } from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
import { services, vacancies } from '../db/schema.js';

/**
 * What the public may see: the one rule behind search, the map, profiles, widgets, the sitemap,
 * reports, open data, feeds and alert digests. A service is public while it is approved and has
 * not lapsed (left unconfirmed 90 days after its yearly re-confirmation mail; src/reconfirm/).
 *
 * Time alone never changes the answer: the re-confirmation job writes `confirmation` when a
 * service crosses a line, and that write retires the caches of search, profiles and the map
 * like any other change (docs/product.md § Re-confirmation).
 */
export function publiclyVisible(s: typeof services = services): SQL {
  return sql`(${s.status} = 'approved' and ${s.confirmation} <> 'lapsed')`;
}

/**
 * {@link publiclyVisible} for vacancies, without a join: the vacancy carries its service's status
 * (migration 0004), and the few lapsed services are one small indexed set (migration 0012).
 */
export function vacancyPubliclyVisible(v: typeof vacancies = vacancies): SQL {
  return sql`(${v}.service_status = 'approved' and ${v.serviceId} not in
    (select ${services.id} from ${services} where ${services.confirmation} = 'lapsed'))`;
}

/** {@link publiclyVisible} of a service row already read. */
export function isPubliclyVisible(row: {
  status: ServiceStatus | string;
  confirmation: ConfirmationState | string;
}): boolean {
  return row.status === 'approved' && row.confirmation !== 'lapsed';
}
