import { describe, expect, it } from 'vitest';
import { loadCities, type City } from '../cities.js';
import { EXONYMS } from '../exonyms.js';
import { Gazetteer } from '../gazetteer.js';
import { normalizePlaceName } from '../normalize.js';
import { transliterateUkrainian } from '../transliterate.js';

describe('transliterateUkrainian', () => {
  it('follows the national transliteration', () => {
    expect(transliterateUkrainian('Київ')).toBe('Kyiv');
    expect(transliterateUkrainian('Запоріжжя')).toBe('Zaporizhzhia');
    expect(transliterateUkrainian('Згурівка')).toBe('Zghurivka');
    expect(transliterateUkrainian('Юрій Яковенко')).toBe('Yurii Yakovenko');
    expect(transliterateUkrainian('Щастя')).toBe('Shchastia');
    expect(transliterateUkrainian('перукарня')).toBe('perukarnia');
    expect(transliterateUkrainian('Маріуполь, 12')).toBe('Mariupol, 12');
  });
});

describe('normalizePlaceName', () => {
  it('folds case, accents, apostrophes and punctuation', () => {
    expect(normalizePlaceName('Łódź')).toBe('lodz');
    expect(normalizePlaceName('  Frankfurt am Main ')).toBe('frankfurt am main');
    expect(normalizePlaceName('Cluj-Napoca')).toBe('cluj napoca');
    expect(normalizePlaceName('Рейк’явік')).toBe('рейкявік');
    expect(normalizePlaceName('Київ')).toBe('київ');
  });
});

describe('Gazetteer', () => {
  const gazetteer = new Gazetteer();

  it('resolves every row of the exonym table to a place of its country', () => {
    const cities = loadCities();
    for (const [name, country, ...aliases] of EXONYMS) {
      expect(
        cities.some((c) => c.name === name && c.country === country),
        name,
      ).toBe(true);
      for (const alias of aliases) {
        const result = gazetteer.geocode(alias, country);
        expect(result.status, alias).toBe('ok');
        expect(result.candidates[0]!.city, alias).toBe(name);
      }
    }
  });

  it('finds the city in a full street address', () => {
    const result = gazetteer.geocode('ul. Marszałkowska 10, 00-001 Warszawa');
    expect(result).toMatchObject({
      status: 'ok',
      candidates: [{ city: 'Warsaw', countryCode: 'PL', approximate: true, source: 'gazetteer' }],
    });
    expect(result.candidates[0]!.displayName).toBe('Warsaw, PL');
    expect(result.candidates[0]!.lat).toBeCloseTo(52.23, 1);
    expect(result.candidates[0]!.lng).toBeCloseTo(21.01, 1);
  });

  it('reads a country named in the address', () => {
    expect(gazetteer.geocode('Berlin, Germany').candidates.map((c) => c.displayName)).toEqual([
      'Berlin, DE',
    ]);
    expect(gazetteer.geocode('Бірмінгем, Велика Британія').candidates[0]!.countryCode).toBe('GB');
  });

  it('prefers the longest name nearest the end', () => {
    expect(gazetteer.geocode('Zeil 1, 60313 Frankfurt am Main').candidates[0]!.city).toBe(
      'Frankfurt am Main',
    );
    expect(gazetteer.geocode('Marszałkowska 10 Kraków').candidates[0]!.city).toBe('Kraków');
  });

  it('answers several places of one name by population, at most five', () => {
    const result = gazetteer.geocode('Paris');
    expect(result.status).toBe('ambiguous');
    expect(result.candidates.length).toBeLessThanOrEqual(5);
    expect(result.candidates[0]!.displayName).toBe('Paris, FR');
    expect(result.candidates.map((c) => c.displayName)).toContain('Paris, TX, US');
  });

  it('resolves Cyrillic through exonyms and transliteration', () => {
    expect(gazetteer.geocode('Варшава').candidates[0]!.city).toBe('Warsaw');
    expect(gazetteer.geocode('Гданськ').candidates[0]!.city).toBe('Gdańsk');
    // Not in the exonym table: transliteration alone.
    expect(gazetteer.geocode('Тернопіль').candidates[0]!.city).toBe('Ternopil');
  });

  it('lets an exonym win over its namesakes, unless the country says otherwise', () => {
    expect(gazetteer.geocode('Valencia')).toMatchObject({
      status: 'ok',
      candidates: [{ countryCode: 'ES' }],
    });
    expect(gazetteer.geocode('Valencia', 'VE').candidates[0]!.countryCode).toBe('VE');
  });

  it('answers wrong_address when nothing matches', () => {
    expect(gazetteer.geocode('qwzx plmk 12')).toEqual({ status: 'wrong_address', candidates: [] });
    expect(gazetteer.geocode('00-001')).toEqual({ status: 'wrong_address', candidates: [] });
    expect(gazetteer.geocode('Warszawa', 'DE').status).toBe('wrong_address');
  });
});

describe('Gazetteer labels of namesakes', () => {
  const gazetteer = new Gazetteer();
  const labels = (address: string, country: string) =>
    gazetteer.geocode(address, country).candidates.map((c) => c.displayName);

  it('offers every place of a repeated name, a part of a city too, each labelled with its region', () => {
    const result = gazetteer.geocode('Hauptstraße 1, Neustadt', 'DE');
    expect(result.status).toBe('ambiguous');
    expect(result.candidates.map((c) => c.displayName)).toEqual([
      'Neustadt, Rheinland-Pfalz, DE',
      'Neustadt, Hamburg, DE',
      'Neustadt, Lower Saxony, DE',
    ]);
    expect(labels('Wola', 'PL')).toEqual(['Wola, Mazovia, PL', 'Wola, Silesia, PL']);
  });

  it('names the nearest town where a name repeats within one region', () => {
    expect(labels('Czarna', 'PL')).toEqual([
      'Czarna (Dębica), Subcarpathia, PL',
      'Czarna (Łańcut), Subcarpathia, PL',
      'Czarna (Sanok), Subcarpathia, PL',
    ]);
    const newport = labels('Newport', 'GB');
    expect(newport).toHaveLength(5);
    expect(newport.filter((l) => l.endsWith(', England, GB'))).toHaveLength(4);
  });

  it('keeps a unique name short, and US and Canadian places with their state code', () => {
    expect(labels('Kraków', 'PL')).toEqual(['Kraków, PL']);
    expect(labels('Springfield', 'US')).toContain('Springfield, IL, US');
  });

  it('gives every place of a repeated name its own label, in any country', () => {
    const groups = new Map<string, City[]>();
    for (const city of loadCities()) {
      const key = `${city.country}|${normalizePlaceName(city.name)}`;
      groups.set(key, [...(groups.get(key) ?? []), city]);
    }
    let repeated = 0;
    const clashes: string[] = [];
    for (const [key, cities] of groups) {
      if (cities.length < 2) continue;
      repeated++;
      const names = cities.map((c) => gazetteer.displayName(c));
      if (new Set(names).size !== names.length) clashes.push(`${key}: ${names.join(' / ')}`);
    }
    expect(repeated).toBeGreaterThan(5000);
    expect(clashes).toEqual([]);
  });
});

describe('Gazetteer suggestions', () => {
  const gazetteer = new Gazetteer();
  const names = (address: string, country?: string) =>
    gazetteer.suggest(address, country).map((c) => c.displayName);

  it('suggests places beginning with the last part typed, exact names first', () => {
    expect(names('Hauptstraße 1, Neus', 'DE')).toEqual(
      expect.arrayContaining(['Neuss, DE', 'Neustadt, Rheinland-Pfalz, DE']),
    );
    expect(names('Hauptstraße 1, Neustadt', 'DE').slice(0, 3)).toEqual([
      'Neustadt, Rheinland-Pfalz, DE',
      'Neustadt, Hamburg, DE',
      'Neustadt, Lower Saxony, DE',
    ]);
    expect(names('kra', 'PL')[0]).toBe('Kraków, PL');
    expect(gazetteer.suggest('Paris', 'FR')[0]).toMatchObject({
      city: 'Paris',
      countryCode: 'FR',
      source: 'gazetteer',
      approximate: true,
    });
  });

  it('reads the last words when there is no comma, and Ukrainian', () => {
    expect(names('Marszałkowska 10 Krak', 'PL')[0]).toBe('Kraków, PL');
    expect(names('Варш')[0]).toBe('Warsaw, PL');
    expect(names('Мюн', 'DE')[0]).toBe('Munich, DE');
  });

  it('suggests at most six, and nothing for one letter, numbers or no match', () => {
    expect(gazetteer.suggest('Ber', 'DE').length).toBeLessThanOrEqual(6);
    expect(gazetteer.suggest('B', 'DE')).toEqual([]);
    expect(gazetteer.suggest('Hauptstraße 1, 10115', 'DE')).toEqual([]);
    expect(gazetteer.suggest('Qwzx', 'DE')).toEqual([]);
    expect(gazetteer.suggest('Warsz', 'DE')).toEqual([]);
  });
});
