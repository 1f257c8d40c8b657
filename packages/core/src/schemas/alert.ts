import { z } from 'zod';
import { countryNameKey } from '../countries.js';
import type { Translate } from '../i18n/translate.js';
import { categoryLabelKey } from '../keys.js';
import { emailSchema, text } from '../validation.js';
import { localeSchema } from './account.js';
import { pushSubscriptionSchema } from './options.js';
import { serviceSearchQuerySchema, vacancySearchQuerySchema } from './search.js';

/** Bounds of alerts (docs/product.md § Alerts). */
export const ALERT_LIMITS = {
  /** Most subscriptions one address may hold; one more is refused (quietly: the answer is 202). */
  perAddress: 20,
  radiusKmMin: 1,
  radiusKmMax: 200,
  /** The place's name shown beside the radius ("within 25 km of Kraków"). */
  placeLabelMax: 200,
  /** Devices one alert pushes to ("Also notify me on this device"); one more is not stored. */
  devicesPerAlert: 5,
} as const;

/** The radii the subscribe dialog offers for "within R km of a place", in km. */
export const ALERT_RADII_KM = [5, 10, 25, 50, 100] as const;

export const ALERT_KINDS = ['services', 'vacancies'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const alertKindSchema = z.enum(ALERT_KINDS);

/** instant: as soon as the next run finds something; daily and weekly: one digest a period. */
export const ALERT_FREQUENCIES = ['instant', 'daily', 'weekly'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const alertFrequencySchema = z.enum(ALERT_FREQUENCIES);

/** "Within R km of a place": the centre of the home page's search. */
export const alertNearSchema = z.strictObject({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  radiusKm: z.number().min(ALERT_LIMITS.radiusKmMin).max(ALERT_LIMITS.radiusKmMax),
  label: text().max(ALERT_LIMITS.placeLabelMax),
});
export type AlertNear = z.infer<typeof alertNearSchema>;

/** The filters of a services search an alert follows: the search's own fields, plus a radius. */
export const serviceAlertFiltersSchema = serviceSearchQuerySchema
  .pick({ q: true, country: true, category: true })
  .extend({ near: alertNearSchema.optional() });
export type ServiceAlertFilters = z.output<typeof serviceAlertFiltersSchema>;

/** The filters of a vacancy search an alert follows. */
export const vacancyAlertFiltersSchema = vacancySearchQuerySchema.pick({
  q: true,
  country: true,
  category: true,
  experience: true,
});
export type VacancyAlertFilters = z.output<typeof vacancyAlertFiltersSchema>;

export type AlertFilters = ServiceAlertFilters | VacancyAlertFilters;

/** What a search an alert follows is: its kind and filters (the two always go together). */
export const alertSearchSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('services'), filters: serviceAlertFiltersSchema }),
  z.strictObject({ kind: z.literal('vacancies'), filters: vacancyAlertFiltersSchema }),
]);
export type AlertSearch = z.output<typeof alertSearchSchema>;

const alertFields = {
  email: emailSchema,
  locale: localeSchema.default('ua'),
  frequency: alertFrequencySchema.default('daily'),
  /**
   * The browser's push subscription, sent from the installed app: this device also gets a push
   * with each digest, once the address has confirmed.
   */
  push: pushSubscriptionSchema.optional(),
};

/** Body of `POST alerts`: subscribe an address to new results of a search (double opt-in). */
export const alertSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...alertFields,
    kind: z.literal('services'),
    filters: serviceAlertFiltersSchema,
  }),
  z.strictObject({
    ...alertFields,
    kind: z.literal('vacancies'),
    filters: vacancyAlertFiltersSchema,
  }),
]);
export type AlertInput = z.input<typeof alertSchema>;
export type Alert = z.output<typeof alertSchema>;

/** Body of `PUT alerts/manage/:id`: a new frequency and/or new filters of the same kind. */
export const alertUpdateSchema = z.strictObject({
  frequency: alertFrequencySchema,
  filters: z.union([serviceAlertFiltersSchema, vacancyAlertFiltersSchema]).optional(),
});
export type AlertUpdate = z.output<typeof alertUpdateSchema>;

/** A signed token of an alert link (confirm, manage, one-click unsubscribe). */
export const alertTokenSchema = z.strictObject({ token: text({ trim: false }).min(1).max(1000) });

/** One subscription on the manage page. */
export const alertViewSchema = z.object({
  id: z.string(),
  kind: alertKindSchema,
  filters: z.record(z.string(), z.unknown()),
  frequency: alertFrequencySchema,
  confirmed: z.boolean(),
  /** Devices this alert pushes to (confirmed ones). */
  devices: z.number().int(),
  createdAt: z.string(),
});
export type AlertView = Omit<z.infer<typeof alertViewSchema>, 'filters'> & {
  filters: AlertFilters;
};

/** Answer of `GET alerts/manage`: an address's subscriptions, newest first. */
export const alertListSchema = z.object({
  email: z.string(),
  locale: localeSchema,
  alerts: z.array(alertViewSchema),
});
export type AlertList = Omit<z.infer<typeof alertListSchema>, 'alerts'> & { alerts: AlertView[] };

/** Answer of `POST alerts/confirm`. */
export const alertConfirmResultSchema = z.object({
  status: z.literal('confirmed'),
  locale: localeSchema,
  /** The manage page's token for the same address. */
  manageToken: z.string(),
});
export type AlertConfirmResult = z.infer<typeof alertConfirmResultSchema>;

/**
 * The filters of an alert as lines a person reads ("Country: Poland", "Within 25 km of
 * Kraków"), in the language of `t`: the subscribe dialog, the manage page and the mails show the
 * same. A search with no filter is one line, "everything new".
 */
export function alertFilterLines(
  search: { kind: AlertKind; filters: AlertFilters },
  t: Translate,
): string[] {
  const f = search.filters as ServiceAlertFilters & VacancyAlertFilters;
  const lines: string[] = [];
  if (f.q?.trim()) lines.push(t('alerts.filter_q', { q: f.q.trim() }));
  if (f.country) lines.push(t('alerts.filter_country', { country: t(countryNameKey(f.country)) }));
  if (f.category && f.category !== 'all') {
    lines.push(t('alerts.filter_category', { category: t(categoryLabelKey(f.category)) }));
  }
  if (search.kind === 'vacancies' && f.experience) {
    lines.push(t('alerts.filter_experience', { experience: t(`experience.${f.experience}`) }));
  }
  if (search.kind === 'services' && f.near) {
    lines.push(t('alerts.filter_near', { radius: f.near.radiusKm, place: f.near.label }));
  }
  return lines.length ? lines : [t(`alerts.filter_none_${search.kind}`)];
}
