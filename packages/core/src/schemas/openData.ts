import { z } from 'zod';
import { categorySchema } from '../categories.js';
import { COUNTRY_CODES } from '../countries.js';
import { localeSchema } from './account.js';
import { text } from '../validation.js';

/**
 * One service in the open-data export (`GET open-data/services.csv` and `.geojson`,
 * docs/open-data.md): its public fields only, never its owner, status or anything an
 * administrator or a reporter wrote. The CSV's columns are these keys in this order; the GeoJSON
 * keeps `lat` and `lng` in the geometry and the rest in `properties`. `lat`/`lng` are null when
 * the service has no position or its owner hid it from the map.
 */
export const openDataServiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: categorySchema.nullable(),
  countryCode: z.string(),
  city: z.string(),
  address: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  isOnline: z.boolean(),
  website: z.string(),
  phone: z.string(),
  descriptionUa: z.string(),
  descriptionOther: z.string(),
  isPartner: z.boolean(),
  haveVacancy: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The service's page on the site. */
  url: z.string(),
});
export type OpenDataService = z.infer<typeof openDataServiceSchema>;

/** The export's fields, in the CSV's column order. */
export const OPEN_DATA_FIELDS = Object.keys(
  openDataServiceSchema.shape,
) as (keyof OpenDataService)[];

/** The licence of the open data (docs/open-data.md says why this one). */
export const OPEN_DATA_LICENSE = {
  name: 'Open Database License (ODbL) v1.0',
  spdx: 'ODbL-1.0',
  url: 'https://opendatacommons.org/licenses/odbl/1-0/',
} as const;

/** Query of the Atom feeds (`/feeds/services.atom`, `/feeds/vacancies.atom`). */
export const feedQuerySchema = z.strictObject({
  /** A country of the site's list (two letters). */
  country: text()
    .toUpperCase()
    .refine((code) => COUNTRY_CODES.includes(code), { message: 'validation.invalid' })
    .optional(),
  /** A category key. */
  category: categorySchema.optional(),
  /** The language of the feed's titles and summaries. Defaults to Ukrainian. */
  lang: localeSchema.optional(),
});
export type FeedQuery = z.output<typeof feedQuerySchema>;
