import { PoruchError, type AddressDetails, type GeocodeResult } from '@poruch/core';
import { SERVER_VERSION } from '../version.js';

/**
 * The geocoder could not answer (down, slow, or an unexpected reply): the route answers 503
 * `service_unavailable`, and the user can retry or pick the address later.
 */
export class GeocoderUnavailableError extends PoruchError {
  constructor(readonly reason: string) {
    super(503, 'service_unavailable', 'geocoder');
  }
}

export interface NominatimOptions {
  /** Base URL of a Nominatim-compatible server, without `/search`. */
  url: string;
  /** Sent as User-Agent, as Nominatim's usage policy asks. Defaults to "Poruch/<version> (+PUBLIC_URL)". */
  userAgent?: string;
  /** Languages for the names in answers. Defaults to "uk,en". */
  acceptLanguage?: string;
  /** Abort a request after this many milliseconds. Defaults to 5000. */
  timeoutMs?: number;
  /** Most candidates asked for. Defaults to 5. */
  limit?: number;
}

/** One result of `/search?format=jsonv2&addressdetails=1`, the fields used here. */
interface NominatimPlace {
  lat: string;
  lon: string;
  display_name: string;
  type?: string;
  addresstype?: string;
  place_rank?: number;
  address?: Record<string, string | undefined>;
}

/** Types that mean the answer is a whole settlement or area, not a street or a building. */
const AREA_TYPES = new Set([
  'city',
  'town',
  'village',
  'hamlet',
  'municipality',
  'administrative',
  'county',
  'state',
  'region',
  'country',
  'suburb',
  'borough',
  'city_district',
  'quarter',
  'neighbourhood',
  'postcode',
]);

/** Street level begins at place rank 26 in Nominatim's ranking. */
const STREET_RANK = 26;

/**
 * A geocoder over a Nominatim-compatible HTTP API (Nominatim itself, or a compatible service).
 * Answers precise candidates (`approximate: false`) unless a result is only a settlement or
 * area. Network errors, timeouts, non-2xx answers and malformed bodies become
 * {@link GeocoderUnavailableError}.
 */
export function nominatimGeocoder(options: NominatimOptions) {
  const base = options.url.replace(/\/+$/, '');
  const userAgent = options.userAgent ?? `Poruch/${SERVER_VERSION}`;
  const timeoutMs = options.timeoutMs ?? 5000;
  const limit = options.limit ?? 5;

  return {
    async geocode(address: string, country?: string): Promise<GeocodeResult> {
      const params = new URLSearchParams({
        q: address,
        format: 'jsonv2',
        addressdetails: '1',
        limit: String(limit),
      });
      if (country) params.set('countrycodes', country.toLowerCase());
      let places: unknown;
      try {
        const response = await fetch(`${base}/search?${params}`, {
          headers: {
            'user-agent': userAgent,
            'accept-language': options.acceptLanguage ?? 'uk,en',
            accept: 'application/json',
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) throw new GeocoderUnavailableError(`HTTP ${response.status}`);
        places = await response.json();
      } catch (error) {
        if (error instanceof GeocoderUnavailableError) throw error;
        throw new GeocoderUnavailableError((error as Error).message);
      }
      if (!Array.isArray(places)) throw new GeocoderUnavailableError('not an array');
      const candidates: AddressDetails[] = [];
      const seen = new Set<string>();
      for (const place of places as NominatimPlace[]) {
        const details = toDetails(place);
        if (!details || seen.has(details.displayName)) continue;
        seen.add(details.displayName);
        candidates.push(details);
      }
      if (!candidates.length) return { status: 'wrong_address', candidates };
      return { status: candidates.length === 1 ? 'ok' : 'ambiguous', candidates };
    },
  };
}

function toDetails(place: NominatimPlace): AddressDetails | undefined {
  const lat = Number(place.lat);
  const lng = Number(place.lon);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    return undefined;
  }
  const a = place.address ?? {};
  const kind = place.addresstype ?? place.type ?? '';
  const approximate =
    typeof place.place_rank === 'number' ? place.place_rank < STREET_RANK : AREA_TYPES.has(kind);
  return {
    lat,
    lng,
    displayName: String(place.display_name ?? '').slice(0, 300),
    city: (a.city ?? a.town ?? a.village ?? a.municipality ?? a.hamlet ?? '').slice(0, 300),
    countryCode: (a.country_code ?? '').toUpperCase().slice(0, 2),
    approximate,
    source: 'nominatim',
  };
}
