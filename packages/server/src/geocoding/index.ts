import type { AddressDetails, GeocodeResult } from '@poruch/core';
import type { Env } from '../env.js';
import { SERVER_VERSION } from '../version.js';
import { getGazetteer } from './gazetteer.js';
import { nominatimGeocoder } from './nominatim.js';

export { Gazetteer, getGazetteer } from './gazetteer.js';
export { GeocoderUnavailableError, nominatimGeocoder } from './nominatim.js';
export type { NominatimOptions } from './nominatim.js';

/** Turns an address into candidates: none is a wrong address, several are ambiguous. */
export interface Geocoder {
  /** `gazetteer` (offline, city level) or `nominatim`. */
  readonly kind: 'gazetteer' | 'nominatim';
  /**
   * @param address what the user typed
   * @param country ISO alpha-2 code that narrows the search. Defaults to any country.
   */
  geocode(address: string, country?: string): Promise<GeocodeResult>;
  /** Places for a partly typed address, best first: none when nothing fits yet. */
  suggest(address: string, country?: string): Promise<AddressDetails[]>;
}

/**
 * The geocoder the environment asks for: a Nominatim-compatible server when GEOCODER_URL is
 * set, otherwise the offline gazetteer (built on the first call, about 0.4 s).
 */
export function createGeocoder(env: Pick<Env, 'GEOCODER_URL' | 'PUBLIC_URL'>): Geocoder {
  if (env.GEOCODER_URL) {
    const nominatim = nominatimGeocoder({
      url: env.GEOCODER_URL,
      userAgent: `Poruch/${SERVER_VERSION} (+${env.PUBLIC_URL})`,
    });
    return {
      kind: 'nominatim',
      geocode: (address, country) => nominatim.geocode(address, country),
      // Nominatim has no prefix search: its answer for the text so far is the suggestion.
      suggest: async (address, country) => (await nominatim.geocode(address, country)).candidates,
    };
  }
  return {
    kind: 'gazetteer',
    geocode: async (address, country) => getGazetteer().geocode(address, country),
    suggest: async (address, country) => getGazetteer().suggest(address, country),
  };
}
