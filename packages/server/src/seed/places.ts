import type { AddressDetails } from '@poruch/core';
import { loadCities, type City } from '../geocoding/cities.js';
import { Random, WeightedPicker } from './random.js';

/**
 * Countries with Ukrainian communities and a rough relative size of each, used to spread
 * generated services the way the real diaspora is spread.
 */
export const DIASPORA_WEIGHTS: Readonly<Record<string, number>> = {
  PL: 30,
  DE: 25,
  CZ: 10,
  US: 8,
  GB: 6,
  IT: 6,
  CA: 6,
  ES: 5,
  FR: 3,
  NL: 3,
  AT: 3,
  IE: 3,
  SK: 3,
  RO: 3,
  MD: 3,
  PT: 2,
  LT: 2,
  BE: 2,
  CH: 2,
  SE: 2,
  NO: 2,
  DK: 1.5,
  FI: 1.5,
  HU: 1.5,
  BG: 1.5,
  GR: 1,
  TR: 1,
  GE: 1,
  IL: 1,
  AE: 1,
  AU: 1,
  LV: 1,
  EE: 1,
  HR: 0.5,
  CY: 0.5,
  BR: 0.5,
  AR: 0.5,
  SI: 0.3,
  LU: 0.3,
  MT: 0.3,
  IS: 0.2,
  NZ: 0.2,
};

/** Dialling codes of those countries, for made-up phone numbers. */
export const DIALLING_CODES: Readonly<Record<string, string>> = {
  PL: '48',
  DE: '49',
  CZ: '420',
  US: '1',
  GB: '44',
  IT: '39',
  CA: '1',
  ES: '34',
  FR: '33',
  NL: '31',
  AT: '43',
  IE: '353',
  SK: '421',
  RO: '40',
  MD: '373',
  PT: '351',
  LT: '370',
  BE: '32',
  CH: '41',
  SE: '46',
  NO: '47',
  DK: '45',
  FI: '358',
  HU: '36',
  BG: '359',
  GR: '30',
  TR: '90',
  GE: '995',
  IL: '972',
  AE: '971',
  AU: '61',
  LV: '371',
  EE: '372',
  HR: '385',
  CY: '357',
  BR: '55',
  AR: '54',
  SI: '386',
  LU: '352',
  MT: '356',
  IS: '354',
  NZ: '64',
  UA: '380',
};

/** How many of a country's biggest places take part. */
const CITIES_PER_COUNTRY = 40;

/** A populated place a service can be in. */
export interface Place {
  name: string;
  country: string;
  lat: number;
  lng: number;
  population: number;
}

const toPlace = (c: City): Place => ({
  name: c.name,
  country: c.country,
  lat: c.loc.coordinates[1],
  lng: c.loc.coordinates[0],
  population: c.population,
});

/**
 * Draws places: first a country by diaspora weight, then one of its biggest places in
 * proportion to population, so capitals and big cities get most services.
 */
export class PlacePicker {
  private readonly countries: WeightedPicker<string>;
  private readonly byCountry = new Map<string, WeightedPicker<Place>>();

  constructor(weights: Readonly<Record<string, number>> = DIASPORA_WEIGHTS) {
    const grouped = new Map<string, City[]>();
    for (const city of loadCities()) {
      // PPLX are parts of a city; they would double-count it.
      if (!(city.country in weights) || city.featureCode === 'PPLX') continue;
      let list = grouped.get(city.country);
      if (!list) grouped.set(city.country, (list = []));
      list.push(city);
    }
    for (const [country, list] of grouped) {
      list.sort((a, b) => b.population - a.population);
      const places = list.slice(0, CITIES_PER_COUNTRY).map(toPlace);
      this.byCountry.set(country, new WeightedPicker(places, (p) => p.population));
    }
    this.countries = new WeightedPicker([...this.byCountry.keys()], (code) => weights[code] ?? 0);
  }

  /** Country codes that have places. */
  get countryCodes(): string[] {
    return [...this.byCountry.keys()];
  }

  pick(random: Random): Place {
    return this.byCountry.get(this.countries.pick(random))!.pick(random);
  }

  /** The biggest places of one country. */
  places(country: string): readonly Place[] {
    return this.byCountry.get(country)?.items ?? [];
  }
}

/**
 * A point near a place: normally distributed around its centre, wider for bigger cities, so
 * services cluster the way they do in real cities. Returns [lat, lng].
 */
export function jitter(random: Random, place: Place, scale = 1): [number, number] {
  const spread = scale * Math.min(0.1, 0.008 + 0.03 * Math.sqrt(place.population / 1_000_000));
  const lat = place.lat + random.gaussian() * spread;
  const lng =
    place.lng + (random.gaussian() * spread) / Math.max(0.2, Math.cos((place.lat * Math.PI) / 180));
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return [round(Math.max(-89.9, Math.min(89.9, lat))), round(((lng + 540) % 360) - 180)];
}

/** A made-up phone number of a country: `+48 512 345 678`. */
export function phoneNumber(random: Random, country: string): string {
  const dial = DIALLING_CODES[country] ?? '44';
  return `+${dial} ${random.int(200, 999)} ${random.int(100, 999)} ${random.int(100, 999)}`;
}

/** A service's address details at a point in a city, as the gazetteer places it (approximate). */
export function cityAddressDetails(
  lat: number,
  lng: number,
  city: string,
  country: string,
): AddressDetails {
  return {
    lat,
    lng,
    displayName: `${city}, ${country}`,
    city,
    countryCode: country,
    approximate: true,
    source: 'gazetteer',
  };
}
