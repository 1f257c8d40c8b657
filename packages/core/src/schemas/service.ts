import { z } from 'zod';
import { categorySchema } from '../categories.js';
import { duplicateAnswersSchema } from './duplicates.js';
import {
  LIMITS,
  VALIDATION_KEYS,
  optionalText,
  phoneSchema,
  requiredText,
  text,
  websiteSchema,
} from '../validation.js';

export const SERVICE_STATUSES = ['pending', 'approved', 'declined'] as const;
export const serviceStatusSchema = z.enum(SERVICE_STATUSES);
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

/**
 * Where a service is in its yearly re-confirmation (docs/product.md § Re-confirmation):
 * `current`, `overdue` (labelled "Not confirmed since…", ranked below) or `lapsed` (out of
 * every public view until its owner confirms).
 */
export const CONFIRMATION_STATES = ['current', 'overdue', 'lapsed'] as const;
export const confirmationStateSchema = z.enum(CONFIRMATION_STATES);
export type ConfirmationState = z.infer<typeof confirmationStateSchema>;

/**
 * The re-confirmation timeline: the mail `mailAfterMonths` after `confirmedAt`, then, counted
 * from the mail, the reminder, the "Not confirmed since" label and the service's withdrawal.
 */
export const RECONFIRMATION = {
  mailAfterMonths: 12,
  reminderDays: 14,
  overdueDays: 30,
  lapsedDays: 90,
} as const;

/** Body of `POST reconfirm`: the signed token of a re-confirmation mail's "Still active" link. */
export const reconfirmBodySchema = z.strictObject({ token: text({ trim: false }).max(300) });

/** A confirmed service: `POST reconfirm` and `POST my/services/:id/confirm`. */
export const reconfirmedSchema = z.object({
  id: z.string(),
  name: z.string(),
  confirmedAt: z.string(),
});
export type Reconfirmed = z.infer<typeof reconfirmedSchema>;

/** Two-letter country code, upper case. */
export const countryCodeSchema = text()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/);

const addressDetailsOf = (string: () => z.ZodString) =>
  z.object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    displayName: string().max(LIMITS.addressMax),
    city: string().max(LIMITS.addressMax).default(''),
    countryCode: string().max(2).default(''),
    /** True when the geocoder resolved only the city (offline gazetteer). */
    approximate: z.boolean().default(false),
    /** Which geocoder answered: `gazetteer` or `nominatim`. */
    source: string().max(32).default('gazetteer'),
  });
/** A geocoder candidate: the validated address of a service, as the API answers it. */
export const addressDetailsSchema = addressDetailsOf(() => z.string());
export type AddressDetails = z.infer<typeof addressDetailsSchema>;
/** The candidate the user chose, as a client sends it back: its texts checked like any input. */
export const addressDetailsInputSchema = addressDetailsOf(() => text({ trim: false }));

/** What a partner writes when adding or editing a service. */
export const serviceInputSchema = z.strictObject({
  name: requiredText(LIMITS.nameMax),
  countryCode: countryCodeSchema,
  category: categorySchema.nullable().default(null),
  address: optionalText(LIMITS.addressMax),
  addressDetails: addressDetailsInputSchema.nullable().default(null),
  website: websiteSchema.default(''),
  phone: phoneSchema.default(''),
  descriptionUa: optionalText(LIMITS.descriptionMax, { multiline: true }),
  descriptionOther: optionalText(LIMITS.descriptionMax, { multiline: true }),
  isOnline: z.boolean().default(false),
  showOnMap: z.boolean().default(true),
  /** The owner's original place in Ukraine. */
  originalPlace: optionalText(LIMITS.addressMax),
  marketingConsent: z.boolean().default(false),
  /** The address confirmation checkbox: "shown on the map at this address". */
  addressConfirmed: z.boolean().default(false),
  /** When adding a service: what the partner said about its lookalikes (taken only then). */
  duplicates: duplicateAnswersSchema.optional(),
});
export type ServiceInput = z.infer<typeof serviceInputSchema>;

/** A service as the API returns it. */
export const serviceSchema = z.object({
  id: z.string(),
  ownerId: z.string().nullable(),
  name: z.string(),
  countryCode: z.string(),
  category: categorySchema.nullable(),
  address: z.string(),
  addressDetails: addressDetailsSchema.nullable(),
  website: z.string(),
  phone: z.string(),
  descriptionUa: z.string(),
  descriptionOther: z.string(),
  isOnline: z.boolean(),
  haveVacancy: z.boolean(),
  showOnMap: z.boolean(),
  isPartner: z.boolean(),
  status: serviceStatusSchema,
  declineReason: z.string().nullable(),
  usedCount: z.number().int(),
  originalPlace: z.string(),
  marketingConsent: z.boolean(),
  /** Approval, the owner's last edit or last confirmation; null before the first approval. */
  confirmedAt: z.string().nullable(),
  /** When this cycle's re-confirmation mail went out (null: not yet due). */
  reconfirmMailedAt: z.string().nullable(),
  confirmation: confirmationStateSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Service = z.infer<typeof serviceSchema>;

/** An address shown on the map must be confirmed by the owner. */
export const requireAddressConfirmation = <T extends z.ZodType<ServiceInput>>(schema: T) =>
  schema.refine((s) => s.isOnline || !s.showOnMap || s.addressConfirmed, {
    error: VALIDATION_KEYS.mustAgree,
    path: ['addressConfirmed'],
  });
