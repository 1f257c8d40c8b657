import { and, desc, eq, sql } from 'drizzle-orm';
import type {
  AuditAction,
  AuditTargetType,
  ServiceProfile,
  ServiceSummary,
  Vacancy,
} from '@poruch/core';
import type { Db } from '../db/index.js';
import { auditLog, services, vacancies } from '../db/schema.js';
import type { ServiceRow } from './services.js';
import { publiclyVisible } from '../search/visibility.js';

/** Anything that can run queries: the database or a transaction. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export type VacancyRow = typeof vacancies.$inferSelect;

export function vacancyToApi(row: VacancyRow): Vacancy {
  return {
    id: row.id,
    serviceId: row.serviceId,
    name: row.name,
    requirements: row.requirements,
    description: row.description,
    salary: row.salary,
    experience: row.experience,
    isOpen: row.isOpen,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The public summary of a service: no owner, no status. */
export function serviceToSummary(row: ServiceRow): ServiceSummary {
  return {
    id: row.id,
    name: row.name,
    countryCode: row.countryCode,
    category: row.category,
    address: row.address,
    lat: row.lat,
    lng: row.lng,
    descriptionUa: row.descriptionUa,
    descriptionOther: row.descriptionOther,
    website: row.website,
    phone: row.phone,
    isOnline: row.isOnline,
    haveVacancy: row.haveVacancy,
    isPartner: row.isPartner,
    usedCount: row.usedCount,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    confirmation: row.confirmation,
  };
}

/**
 * The public profile of an approved service (`GET /api/v1/services/:id`, and the first screen
 * the site's server draws into a profile page): null when the id is missing or not approved.
 */
export async function findPublicProfile(db: Executor, id: string): Promise<ServiceProfile | null> {
  const [row] = await db
    .select()
    .from(services)
    .where(and(eq(services.id, id), publiclyVisible()))
    .limit(1);
  if (!row) return null;
  const open = await db
    .select()
    .from(vacancies)
    .where(and(eq(vacancies.serviceId, row.id), eq(vacancies.isOpen, true)))
    .orderBy(desc(vacancies.createdAt));
  return {
    ...serviceToSummary(row),
    addressDetails: row.addressDetails,
    showOnMap: row.showOnMap,
    originalPlace: row.originalPlace,
    vacancies: open.map(vacancyToApi),
  };
}

/**
 * Keeps the have-vacancy flag equal to "has at least one open vacancy". The row is written only
 * when the flag changes: a second vacancy, or an edit, leaves the service (its index entries, and
 * the search work of its triggers) alone.
 */
export async function syncHaveVacancy(db: Executor, serviceId: string) {
  const open = sql`exists (select 1 from ${vacancies} where ${vacancies.serviceId} = ${serviceId} and ${vacancies.isOpen})`;
  await db
    .update(services)
    .set({ haveVacancy: open })
    .where(and(eq(services.id, serviceId), sql`${services.haveVacancy} IS DISTINCT FROM ${open}`));
}

/** A service owned by the account, or null: the ownership check of every partner route. */
export async function findOwnedService(db: Executor, serviceId: string, ownerId: string) {
  const rows = await db
    .select()
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.ownerId, ownerId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Records an admin action: who, what, on what, when (the audit screen lists them). */
export async function audit(
  db: Executor,
  actorId: string,
  action: AuditAction,
  targetType: AuditTargetType,
  targetId: string | null,
  details: Record<string, unknown> = {},
) {
  await db.insert(auditLog).values({ actorId, action, targetType, targetId, details });
}
