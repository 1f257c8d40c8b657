import { z } from 'zod';
import { LIMITS, text } from '../validation.js';
import { addressDetailsSchema, countryCodeSchema } from './service.js';

/** Query of `GET geocode`: an address, optionally narrowed to a country. */
export const geocodeQuerySchema = z.strictObject({
  address: text().min(1).max(LIMITS.addressMax),
  country: countryCodeSchema.optional(),
});
export type GeocodeQuery = z.output<typeof geocodeQuerySchema>;

export const GEOCODE_STATUSES = ['ok', 'wrong_address', 'ambiguous'] as const;

/**
 * `ok`: exactly one candidate; `wrong_address`: none (the address could not be found);
 * `ambiguous`: several, to choose from ("add more details or select one of the options").
 */
export const geocodeResultSchema = z.object({
  status: z.enum(GEOCODE_STATUSES),
  candidates: z.array(addressDetailsSchema),
});
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;

/** Answer of `GET geocode/suggest`: places for what the user is typing, best first (may be none). */
export const geocodeSuggestionsSchema = z.object({
  suggestions: z.array(addressDetailsSchema),
});
export type GeocodeSuggestions = z.infer<typeof geocodeSuggestionsSchema>;
