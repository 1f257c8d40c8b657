import { z } from 'zod';
import { categoryFilterSchema, categorySchema } from '../categories.js';
import { experienceSchema, vacancySchema } from './vacancy.js';
import { confirmationStateSchema, countryCodeSchema, serviceStatusSchema } from './service.js';
import { LIMITS } from '../limits.js';
import { text } from '../validation.js';
import { pageOf } from './paging.js';

/** Query-string booleans: `true`/`1` and `false`/`0`. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** `minLng,minLat,maxLng,maxLat`, as Leaflet's `toBBoxString()` gives it. */
export const bboxSchema = text({ trim: false })
  .max(100)
  .transform((s, ctx) => {
    const parts = s.split(',').map(Number);
    const [minLng, minLat, maxLng, maxLat] = parts;
    if (
      parts.length !== 4 ||
      parts.some((n) => !Number.isFinite(n)) ||
      minLat! < -90 ||
      maxLat! > 90 ||
      minLat! > maxLat! ||
      minLng! < -180 ||
      maxLng! > 180
    ) {
      ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
      return z.NEVER;
    }
    return { minLng: minLng!, minLat: minLat!, maxLng: maxLng!, maxLat: maxLat! };
  });
export type BBox = z.output<typeof bboxSchema>;

/** `lat,lng`. */
export const pointSchema = text({ trim: false })
  .max(60)
  .transform((s, ctx) => {
    const parts = s.split(',').map(Number);
    const [lat, lng] = parts;
    if (
      parts.length !== 2 ||
      !Number.isFinite(lat) ||
      !Number.isFinite(lng) ||
      Math.abs(lat!) > 90 ||
      Math.abs(lng!) > 180
    ) {
      ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
      return z.NEVER;
    }
    return { lat: lat!, lng: lng! };
  });

const page = z.coerce.number().int().min(1).max(10_000).default(1);
const pageSize = z.coerce.number().int().min(1).max(100).default(20);
const q = text().max(LIMITS.searchQueryMax).optional();

export const SERVICE_SORTS = ['relevance', 'newest', 'distance'] as const;

/** Query of `GET services`: public search over approved services. */
export const serviceSearchQuerySchema = z.strictObject({
  q,
  country: countryCodeSchema.optional(),
  /** A category key, `all` (no filter) or `empty` (services with no category). Defaults to all. */
  category: categoryFilterSchema.default('all'),
  /** Online services only. */
  online: queryBoolean.optional(),
  /** Services with at least one open vacancy only. */
  hasVacancy: queryBoolean.optional(),
  /** Services on the map only (a position, not hidden by the owner), as the map's list shows. */
  onMap: queryBoolean.optional(),
  bbox: bboxSchema.optional(),
  /** Centre for the distance filter and sort. */
  near: pointSchema.optional(),
  /** Radius around `near`, in km. */
  radiusKm: z.coerce.number().positive().max(20_000).optional(),
  /** relevance (with q), newest, or distance (needs near). Defaults to relevance. */
  sort: z.enum(SERVICE_SORTS).default('relevance'),
  page,
  pageSize,
});
export type ServiceSearchQuery = z.output<typeof serviceSearchQuerySchema>;

/** A service in a list or on a map card: no owner data. */
export const serviceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  countryCode: z.string(),
  category: categorySchema.nullable(),
  address: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  descriptionUa: z.string(),
  descriptionOther: z.string(),
  website: z.string(),
  phone: z.string(),
  isOnline: z.boolean(),
  haveVacancy: z.boolean(),
  isPartner: z.boolean(),
  usedCount: z.number().int(),
  createdAt: z.string(),
  /** Approval, the owner's last edit or confirmation: the label's month when `overdue`. */
  confirmedAt: z.string().nullable(),
  /** `overdue`: shown as "Not confirmed since <month year>" and ranked below (never `lapsed`). */
  confirmation: confirmationStateSchema,
  /** Kilometres from `near`, when given. */
  distanceKm: z.number().nullable().optional(),
});
export type ServiceSummary = z.infer<typeof serviceSummarySchema>;

export const servicePageSchema = pageOf(serviceSummarySchema);
export type ServicePage = z.infer<typeof servicePageSchema>;

/** Query of `GET vacancies`: public vacancy search (approved services only). */
export const vacancySearchQuerySchema = z.strictObject({
  q,
  country: countryCodeSchema.optional(),
  category: categoryFilterSchema.default('all'),
  experience: experienceSchema.optional(),
  /** Open vacancies only. Defaults to true. */
  openOnly: queryBoolean.default(true),
  serviceId: z.uuid().optional(),
  page,
  pageSize,
});
export type VacancySearchQuery = z.output<typeof vacancySearchQuerySchema>;

/** Query of `GET map`: clusters and points in a bounding box at a zoom. */
export const mapQuerySchema = z.strictObject({
  bbox: bboxSchema,
  zoom: z.coerce.number().int().min(0).max(22),
  country: countryCodeSchema.optional(),
  category: categoryFilterSchema.default('all'),
  online: queryBoolean.optional(),
  q,
});
export type MapQuery = z.output<typeof mapQuerySchema>;

export const mapClusterSchema = z.object({
  id: z.string(),
  lat: z.number(),
  lng: z.number(),
  count: z.number().int(),
  /** The zoom at which the cluster breaks apart; clicking it zooms there. */
  expansionZoom: z.number().int(),
});
export const mapPointSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: categorySchema.nullable(),
  lat: z.number(),
  lng: z.number(),
});
export const mapResultSchema = z.object({
  clusters: z.array(mapClusterSchema),
  points: z.array(mapPointSchema),
});
export type MapCluster = z.infer<typeof mapClusterSchema>;
export type MapPoint = z.infer<typeof mapPointSchema>;
export type MapResult = z.infer<typeof mapResultSchema>;

/** Query of `GET admin/services`. */
export const adminServiceQuerySchema = z.strictObject({
  /** At least 3 characters: a shorter one answers 400 admin_search_too_short. */
  q,
  status: serviceStatusSchema.optional(),
  country: countryCodeSchema.optional(),
  category: categoryFilterSchema.default('all'),
  isPartner: queryBoolean.optional(),
  /** True: only services left unconfirmed 30 days after the re-confirmation mail (or hidden). */
  stale: queryBoolean.optional(),
  page,
  pageSize,
});
export type AdminServiceQuery = z.output<typeof adminServiceQuerySchema>;

/** A vacancy in search results, with its service. */
export const vacancyHitSchema = vacancySchema.extend({
  service: z.object({
    id: z.string(),
    name: z.string(),
    countryCode: z.string(),
    category: categorySchema.nullable(),
  }),
});
export type VacancyHit = z.infer<typeof vacancyHitSchema>;
export const vacancyPageSchema = pageOf(vacancyHitSchema);
export type VacancyPage = z.infer<typeof vacancyPageSchema>;
