import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  DUPLICATE_MAX,
  DUPLICATE_NAME_SIMILARITY,
  DUPLICATE_RADIUS_M,
  type ClaimRecord,
  type DuplicateAnswers,
  type DuplicateCandidate,
  type DuplicateReason,
  type ReviewDuplicate,
} from '@poruch/core';
import { duplicateAnswers, services } from '../db/schema.js';
import type { Executor } from '../repositories/catalogue.js';
import type { ServiceRow } from '../repositories/services.js';
import { distanceFrom, withinRadius } from '../search/geo.js';
import { publiclyVisible } from '../search/visibility.js';

/**
 * Duplicate detection (docs/product.md § Duplicates). A publicly visible service looks like the
 * one being added when it is within DUPLICATE_RADIUS_M with a similar name (pg_trgm similarity of
 * the names' search keys, so "Лелека" and "Leleka" meet), or has the same phone (its digits) or
 * website (host and path) anywhere. The keys are computed by the database: the `name_key` column
 * (a trigger keeps it), `poruch_phone_key` and `poruch_website_key` (migration 0013), each indexed.
 */

/** The fewest digits a phone needs to be compared: fewer say nothing. */
const PHONE_MIN_DIGITS = 6;

export interface DuplicateProbe {
  name: string;
  lat: number | null;
  lng: number | null;
  phone: string;
  website: string;
  /** The service itself, when it is stored already (a review). */
  excludeId?: string;
}

const phoneKey = (v: string) => sql`poruch_phone_key(${v})`;
const websiteKey = (v: string) => sql`poruch_website_key(${v})`;

/** The publicly visible services that look like the probe, closest reasons first. */
export async function findDuplicates(
  db: Executor,
  probe: DuplicateProbe,
): Promise<DuplicateCandidate[]> {
  const nameKey = sql`poruch_search_key(${probe.name})`;
  const near = probe.lat !== null && probe.lng !== null ? { lat: probe.lat, lng: probe.lng } : null;
  const radiusKm = DUPLICATE_RADIUS_M / 1000;
  const nameNearby = near
    ? sql`(${withinRadius(near, radiusKm)}
        AND similarity(${services.nameKey}, ${nameKey}) >= ${DUPLICATE_NAME_SIMILARITY})`
    : sql`false`;
  const digits = probe.phone.replace(/\D/g, '');
  const samePhone =
    digits.length >= PHONE_MIN_DIGITS
      ? sql`(${services.phone} <> '' AND poruch_phone_key(${services.phone}) = ${phoneKey(probe.phone)})`
      : sql`false`;
  const sameWebsite = probe.website.trim()
    ? sql`(${services.website} <> '' AND poruch_website_key(${services.website}) = ${websiteKey(probe.website)}
        AND ${websiteKey(probe.website)} <> '')`
    : sql`false`;
  const filters: SQL[] = [
    publiclyVisible(),
    sql`(${nameNearby} OR ${samePhone} OR ${sameWebsite})`,
  ];
  if (probe.excludeId) filters.push(sql`${services.id} <> ${probe.excludeId}`);
  const distance = near
    ? sql<number | null>`CASE WHEN ${services.lat} IS NULL THEN NULL
        ELSE ${distanceFrom(near)} * 1000 END`
    : sql<number | null>`NULL::float8`;
  const rows = await db
    .select({
      service: services,
      byName: sql<boolean>`${nameNearby}`,
      byPhone: sql<boolean>`${samePhone}`,
      byWebsite: sql<boolean>`${sameWebsite}`,
      distance,
    })
    .from(services)
    .where(and(...filters))
    .orderBy(sql`${distance} ASC NULLS LAST`, services.name)
    .limit(DUPLICATE_MAX);
  return rows.map(({ service, byName, byPhone, byWebsite, distance: d }) => {
    const reasons: DuplicateReason[] = [];
    if (byName) reasons.push('name_nearby');
    if (byPhone) reasons.push('phone');
    if (byWebsite) reasons.push('website');
    return {
      ...publicRecord(service),
      reasons,
      distanceM: d === null ? null : Math.round(Number(d)),
    };
  });
}

/** The public fields of a service that duplicate detection shows (never its owner). */
function publicRecord(row: ServiceRow) {
  return {
    id: row.id,
    name: row.name,
    countryCode: row.countryCode,
    category: row.category,
    address: row.address,
    phone: row.phone,
    website: row.website,
    isOnline: row.isOnline,
  };
}

/** A claim's side: the public record with its descriptions. */
export const claimRecord = (row: ServiceRow): ClaimRecord => ({
  ...publicRecord(row),
  descriptionUa: row.descriptionUa,
  descriptionOther: row.descriptionOther,
});

/** The probe of a stored service: its own name, position and contacts. */
export const probeOf = (row: ServiceRow): DuplicateProbe => ({
  name: row.name,
  lat: row.lat,
  lng: row.lng,
  phone: row.phone,
  website: row.website,
  excludeId: row.id,
});

/**
 * Stores what the partner said about the lookalikes of a service just added. Only publicly
 * visible services other than itself are kept; other ids are ignored (a lookalike may have left
 * the catalogue since the check).
 */
export async function recordDuplicateAnswers(
  db: Executor,
  serviceId: string,
  answers: DuplicateAnswers | undefined,
) {
  if (!answers) return;
  const wanted = [
    ...new Set([...(answers.claimOf ? [answers.claimOf] : []), ...answers.distinctFrom]),
  ];
  if (!wanted.length) return;
  const visible = await db
    .select({ id: services.id })
    .from(services)
    .where(and(inArray(services.id, wanted), publiclyVisible()));
  const ids = new Set(visible.map((r) => r.id));
  ids.delete(serviceId);
  const rows = [...ids].map((candidateId) =>
    candidateId === answers.claimOf
      ? { serviceId, candidateId, answer: 'mine' as const, claimStatus: 'open' as const }
      : { serviceId, candidateId, answer: 'different' as const, claimStatus: null },
  );
  if (rows.length) await db.insert(duplicateAnswers).values(rows).onConflictDoNothing();
}

/**
 * The review's "Possible duplicates" of a service: its lookalikes now, and any service its owner
 * answered about that is still public, each with the answer.
 */
export async function reviewDuplicates(db: Executor, row: ServiceRow): Promise<ReviewDuplicate[]> {
  const [found, answered] = await Promise.all([
    findDuplicates(db, probeOf(row)),
    db.select().from(duplicateAnswers).where(eq(duplicateAnswers.serviceId, row.id)),
  ]);
  const byId = new Map(answered.map((a) => [a.candidateId, a]));
  const missing = answered
    .map((a) => a.candidateId)
    .filter((id) => !found.some((c) => c.id === id));
  const extra = missing.length
    ? await db
        .select()
        .from(services)
        .where(and(inArray(services.id, missing), publiclyVisible()))
    : [];
  const all: DuplicateCandidate[] = [
    ...found,
    ...extra.map((s) => ({ ...publicRecord(s), reasons: [], distanceM: null })),
  ];
  return all.map((c) => ({
    ...c,
    answer: byId.get(c.id)?.answer ?? null,
    claimStatus: byId.get(c.id)?.claimStatus ?? null,
  }));
}
