import type {
  AlertFrequency,
  AlertKind,
  CategoryKey,
  Experience,
  LocaleCode,
  ServiceAlertFilters,
  VacancyAlertFilters,
} from '@poruch/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { alertSubscriptions, services, vacancies } from '../../db/schema.js';

export interface ServiceSpec {
  name: string;
  country?: string;
  category?: CategoryKey | null;
  address?: string;
  at?: [number, number];
  description?: string;
  status?: 'approved' | 'pending' | 'declined';
  /** When an administrator approved it, if ever. */
  approvedAt?: Date;
}

/** A service written into the database, with its approval time. */
export async function addService(db: Db, s: ServiceSpec): Promise<string> {
  const [row] = await db
    .insert(services)
    .values({
      name: s.name,
      countryCode: s.country ?? 'PL',
      category: s.category === undefined ? 'commerce' : s.category,
      address: s.address ?? '',
      lat: s.at?.[0] ?? null,
      lng: s.at?.[1] ?? null,
      descriptionUa: s.description ?? '',
      status: s.status ?? (s.approvedAt ? 'approved' : 'pending'),
    })
    .returning({ id: services.id });
  if (s.approvedAt) await approvedAt(db, row!.id, s.approvedAt);
  return row!.id;
}

/** An approval at `at`: the service's `approved_at`, as the approve route sets it. */
export async function approvedAt(db: Db, serviceId: string, at: Date): Promise<void> {
  await db.update(services).set({ approvedAt: at }).where(eq(services.id, serviceId));
}

/** A vacancy created at `at`. */
export async function addVacancy(
  db: Db,
  v: { serviceId: string; name: string; experience?: Experience; at: Date; isOpen?: boolean },
): Promise<string> {
  const [row] = await db
    .insert(vacancies)
    .values({
      serviceId: v.serviceId,
      name: v.name,
      experience: v.experience ?? 'any',
      isOpen: v.isOpen ?? true,
      createdAt: v.at,
    })
    .returning({ id: vacancies.id });
  return row!.id;
}

/** A subscription written into the database (confirmed at `confirmedAt` unless null). */
export async function addSubscription(
  db: Db,
  s: {
    email: string;
    locale?: LocaleCode;
    kind?: AlertKind;
    filters?: ServiceAlertFilters | VacancyAlertFilters;
    frequency?: AlertFrequency;
    confirmedAt: Date | null;
  },
): Promise<string> {
  const [row] = await db
    .insert(alertSubscriptions)
    .values({
      email: s.email,
      locale: s.locale ?? 'ua',
      kind: s.kind ?? 'services',
      filters: s.filters ?? { category: 'all' },
      frequency: s.frequency ?? 'daily',
      confirmedAt: s.confirmedAt,
      lastDigestAt: s.confirmedAt,
    })
    .returning({ id: alertSubscriptions.id });
  return row!.id;
}

export const HOUR = 60 * 60_000;
export const DAY = 24 * HOUR;
export const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
