import type { ServiceSummary } from '@poruch/core';
import { sql } from 'drizzle-orm';
import { services } from '../db/schema.js';

/**
 * The columns of a ServiceSummary, named as its fields (for raw statements): what a search page
 * shows of a service. The word index keeps them too (wordIndex.ts), read by the same statement's
 * columns, so its pages are the SQL path's.
 */
export const summarySelect = sql`${services.id} AS id, ${services.name} AS name,
  ${services.countryCode} AS "countryCode", ${services.category} AS category,
  ${services.address} AS address, ${services.lat} AS lat, ${services.lng} AS lng,
  ${services.descriptionUa} AS "descriptionUa", ${services.descriptionOther} AS "descriptionOther",
  ${services.website} AS website, ${services.phone} AS phone, ${services.isOnline} AS "isOnline",
  ${services.haveVacancy} AS "haveVacancy", ${services.isPartner} AS "isPartner",
  ${services.usedCount} AS "usedCount", ${services.createdAt} AS "createdAt",
  ${services.confirmedAt} AS "confirmedAt", ${services.confirmation} AS confirmation`;

/** A row of `summarySelect` (dates as the driver reads them), with the distance when asked. */
export type SummaryRow = Omit<ServiceSummary, 'createdAt' | 'confirmedAt' | 'distanceKm'> & {
  createdAt: Date | string;
  confirmedAt: Date | string | null;
  distanceKm: number | null;
};
