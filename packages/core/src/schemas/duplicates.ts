import { z } from 'zod';
import { categorySchema } from '../categories.js';
import { pageOf, pageQueryShape } from './paging.js';
import {
  LIMITS,
  VALIDATION_KEYS,
  phoneSchema,
  requiredText,
  websiteSchema,
} from '../validation.js';

/**
 * Duplicate detection (docs/product.md § Duplicates): while a partner adds a service, the approved
 * services that look like it; what the partner says about each; and the administrators' view.
 */

/** How far a lookalike with a similar name may be, in metres. */
export const DUPLICATE_RADIUS_M = 200;
/** The least pg_trgm similarity of two names' search keys that counts as "similar". */
export const DUPLICATE_NAME_SIMILARITY = 0.5;
/** The most lookalikes one check answers. */
export const DUPLICATE_MAX = 10;

/** Why a service looks like another: a similar name nearby, the same phone, the same website. */
export const DUPLICATE_REASONS = ['name_nearby', 'phone', 'website'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

/** Body of `POST services/duplicates`: the service as typed so far. */
export const duplicateQuerySchema = z
  .strictObject({
    name: requiredText(LIMITS.nameMax),
    lat: z.number().min(-90).max(90).nullable().default(null),
    lng: z.number().min(-180).max(180).nullable().default(null),
    phone: phoneSchema.default(''),
    website: websiteSchema.default(''),
  })
  .refine((q) => (q.lat === null) === (q.lng === null), {
    error: VALIDATION_KEYS.invalid,
    path: ['lng'],
  });
export type DuplicateQuery = z.input<typeof duplicateQuerySchema>;

/** An approved service that looks like the one being added: its public fields only. */
export const duplicateCandidateSchema = z.object({
  id: z.string(),
  name: z.string(),
  countryCode: z.string(),
  category: categorySchema.nullable(),
  address: z.string(),
  phone: z.string(),
  website: z.string(),
  isOnline: z.boolean(),
  reasons: z.array(z.enum(DUPLICATE_REASONS)),
  /** Metres from the position asked about; null when either has none. */
  distanceM: z.number().nullable(),
});
export type DuplicateCandidate = z.infer<typeof duplicateCandidateSchema>;

export const duplicateCandidatesSchema = z.object({
  candidates: z.array(duplicateCandidateSchema),
});
export type DuplicateCandidates = z.infer<typeof duplicateCandidatesSchema>;

/** The partner's answer about one lookalike. */
export const DUPLICATE_ANSWERS = ['mine', 'different'] as const;
export type DuplicateAnswer = (typeof DUPLICATE_ANSWERS)[number];

/**
 * What the partner said about the lookalikes, sent with a new service (`service.duplicates`):
 * `claimOf` the listed service that is theirs (a claim for the administrators), `distinctFrom`
 * those that are a different service (a note for the reviewer).
 */
export const duplicateAnswersSchema = z
  .strictObject({
    claimOf: z.uuid().nullable().default(null),
    distinctFrom: z.array(z.uuid()).max(DUPLICATE_MAX).default([]),
  })
  .refine((a) => !a.claimOf || !a.distinctFrom.includes(a.claimOf), {
    error: VALIDATION_KEYS.invalid,
    path: ['distinctFrom'],
  });
export type DuplicateAnswers = z.infer<typeof duplicateAnswersSchema>;

/** A claim's state: waiting for an administrator, approved or declined. */
export const CLAIM_STATUSES = ['open', 'approved', 'declined'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** `GET admin/services/:id/duplicates`: the lookalikes of a service with what its owner said. */
export const reviewDuplicateSchema = duplicateCandidateSchema.extend({
  answer: z.enum(DUPLICATE_ANSWERS).nullable(),
  claimStatus: z.enum(CLAIM_STATUSES).nullable(),
});
export type ReviewDuplicate = z.infer<typeof reviewDuplicateSchema>;
export const reviewDuplicatesSchema = z.object({ candidates: z.array(reviewDuplicateSchema) });
export type ReviewDuplicates = z.infer<typeof reviewDuplicatesSchema>;

/** The record of a claim: the same public fields for both sides. */
export const claimRecordSchema = duplicateCandidateSchema
  .omit({ reasons: true, distanceM: true })
  .extend({ descriptionUa: z.string(), descriptionOther: z.string() });
export type ClaimRecord = z.infer<typeof claimRecordSchema>;

/** One claim (`GET admin/claims`): the partner's submission beside the listed service. */
export const claimSchema = z.object({
  status: z.enum(CLAIM_STATUSES),
  submitted: claimRecordSchema,
  claimed: claimRecordSchema,
  claimant: z.object({ id: z.string(), email: z.string() }).nullable(),
  createdAt: z.string(),
});
export type Claim = z.infer<typeof claimSchema>;
export const claimListSchema = pageOf(claimSchema);
export type ClaimList = z.infer<typeof claimListSchema>;

/** Query of `GET admin/claims`: paged as the other admin lists. */
export const claimListQuerySchema = z.strictObject(pageQueryShape);
export type ClaimListQuery = z.input<typeof claimListQuerySchema>;

/** Path of a claim's routes: the submission's and the claimed service's ids. */
export const claimParamsSchema = z.strictObject({ serviceId: z.uuid(), candidateId: z.uuid() });
