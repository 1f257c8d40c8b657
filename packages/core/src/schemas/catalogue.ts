import { z } from 'zod';
import { LIMITS, requiredText, text } from '../validation.js';
import { accountSchema } from './account.js';
import { reportSchema, reportStatusSchema } from './report.js';
import { pageQueryShape } from './paging.js';
import { serviceSummarySchema } from './search.js';
import { addressDetailsSchema, serviceSchema } from './service.js';
import { vacancySchema } from './vacancy.js';

/** Route parameter `:id` of any entity. */
export const idParamsSchema = z.strictObject({ id: z.uuid() });

/** The public profile of an approved service: contacts, open vacancies and the used count. */
export const serviceProfileSchema = serviceSummarySchema.extend({
  addressDetails: addressDetailsSchema.nullable(),
  /** False when the owner hid the service from the map: its profile shows no map either. */
  showOnMap: z.boolean(),
  originalPlace: z.string(),
  vacancies: z.array(vacancySchema),
});
export type ServiceProfile = z.infer<typeof serviceProfileSchema>;

/**
 * Body of `POST services/:id/used`: "I have used this service". The browser keeps a random id
 * (localStorage) so it marks a service once; the server also limits marks per IP.
 */
export const usedMarkSchema = z.strictObject({
  browserId: text()
    .min(16)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});
export const usedMarkResultSchema = z.object({
  usedCount: z.number().int(),
  /** False when this browser had already marked the service. */
  counted: z.boolean(),
});

/** Body of `PUT my/services/:id/map`: show on or hide from the map. */
export const showOnMapSchema = z.strictObject({ showOnMap: z.boolean() });
/** Body of `PUT my/vacancies/:id/open`: the vacancy-open flag. */
export const vacancyOpenSchema = z.strictObject({ isOpen: z.boolean() });

/** Body of `POST admin/services/:id/decline`: the reason is stored and shown to the owner. */
export const declineSchema = z.strictObject({
  reason: requiredText(LIMITS.reportDescriptionMax, { multiline: true }),
});
/** Body of `PUT admin/services/:id/partner`: mark or unmark as partner. */
export const partnerFlagSchema = z.strictObject({ isPartner: z.boolean() });

/** A service as administrators see it: with its owner. */
export const adminServiceSchema = serviceSchema.extend({
  owner: accountSchema
    .pick({ id: true, email: true, firstName: true, lastName: true, phone: true })
    .nullable(),
});
export type AdminService = z.infer<typeof adminServiceSchema>;

/** Query of `GET admin/reports`. */
export const reportListQuerySchema = z.strictObject({
  status: reportStatusSchema.optional(),
  ...pageQueryShape,
});
export const reportPageSchema = z.object({
  items: z.array(reportSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ReportPage = z.infer<typeof reportPageSchema>;

/** Answer of `POST admin/administrators`: the generated password, shown once. */
export const adminCreatedSchema = z.object({ account: accountSchema, password: z.string() });
export type AdminCreated = z.infer<typeof adminCreatedSchema>;
