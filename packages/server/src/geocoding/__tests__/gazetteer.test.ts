import { describe, expect, it } from 'vitest';
import { loadCities } from '../cities.js';
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
