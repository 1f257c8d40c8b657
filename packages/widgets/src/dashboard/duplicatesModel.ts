import type { Api, Translate } from '@poruch/core/lite';
import {
  duplicateQuerySchema,
  phoneSchema,
  websiteSchema,
  type DuplicateAnswer,
  type DuplicateAnswers,
  type DuplicateCandidate,
  type DuplicateCandidates,
  type DuplicateQuery,
  type DuplicateReason,
} from '@poruch/core';
import { needsMapAddress, type ServiceFormValues } from './serviceFormModel.js';

/**
 * Duplicate detection in the service form (docs/product.md § Duplicates), framework-free: when to
 * ask `POST services/duplicates`, with what, and the partner's answers about each lookalike. The
 * site's service form and the dashboard widget's form render it their own way.
 */

/** How long a pause in typing is before the check runs again. */
export const DUPLICATE_CHECK_DELAY_MS = 500;

/** No answers yet. */
export const noDuplicateAnswers = (): DuplicateAnswers => ({ claimOf: null, distinctFrom: [] });

/**
 * What to ask about the service as typed, or null while there is nothing to compare: a name and
 * a confirmed address (or, off the map, a valid phone or website). Invalid contacts are left out.
 */
export function duplicateProbe(
  v: ServiceFormValues & { duplicates?: unknown },
): DuplicateQuery | null {
  const name = v.name.trim();
  if (!name) return null;
  const phone = phoneSchema.safeParse(v.phone).success ? v.phone.trim() : '';
  const website = websiteSchema.safeParse(v.website).success ? v.website.trim() : '';
  const placed = !!v.addressDetails && (v.addressConfirmed || !needsMapAddress(v));
  if (needsMapAddress(v) ? !placed : !placed && !phone && !website) return null;
  const query: DuplicateQuery = {
    name,
    lat: placed ? v.addressDetails!.lat : null,
    lng: placed ? v.addressDetails!.lng : null,
    phone,
    website,
  };
  return duplicateQuerySchema.safeParse(query).success ? query : null;
}

/** The lookalikes of a probe. */
export async function fetchDuplicates(
  api: Api,
  probe: DuplicateQuery,
  signal?: AbortSignal,
): Promise<DuplicateCandidate[]> {
  const answer = await api.send<DuplicateCandidates>('POST', 'services/duplicates', probe, {
    silent: true,
    ...(signal ? { signal } : {}),
  });
  return answer.candidates;
}

/** Closer than this, a lookalike is "at the same place" rather than some metres away. */
const SAME_PLACE_M = 10;

/** Why a service looks alike, in words: "Similar name, 150 m away", "Same website"… */
export function reasonText(
  t: Translate,
  c: { distanceM?: number | null },
  reason: DuplicateReason,
): string {
  if (reason !== 'name_nearby') return t(`duplicates.reason.${reason}`);
  const distance = c.distanceM ?? 0;
  return distance < SAME_PLACE_M
    ? t('duplicates.reason.name_same_place')
    : t('duplicates.reason.name_nearby', { distance });
}

/** The partner's answer about one lookalike, if any. */
export const answerOf = (a: DuplicateAnswers | undefined, id: string): DuplicateAnswer | null =>
  a?.claimOf === id ? 'mine' : a?.distinctFrom.includes(id) ? 'different' : null;

/** The answers with one changed: only one service can be "mine". */
export function withAnswer(
  a: DuplicateAnswers | undefined,
  id: string,
  answer: DuplicateAnswer,
): DuplicateAnswers {
  const base = a ?? noDuplicateAnswers();
  const distinctFrom = base.distinctFrom.filter((d) => d !== id);
  if (answer === 'mine') return { claimOf: id, distinctFrom };
  return {
    claimOf: base.claimOf === id ? null : base.claimOf,
    distinctFrom: [...distinctFrom, id],
  };
}

/** The answers about the lookalikes still shown; the others are forgotten. */
export function keepAnswers(
  a: DuplicateAnswers | undefined,
  candidates: readonly { id: string }[],
): DuplicateAnswers {
  const ids = new Set(candidates.map((c) => c.id));
  return {
    claimOf: a?.claimOf && ids.has(a.claimOf) ? a.claimOf : null,
    distinctFrom: (a?.distinctFrom ?? []).filter((id) => ids.has(id)),
  };
}
