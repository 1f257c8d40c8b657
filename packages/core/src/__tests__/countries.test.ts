import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  FLAG_CODES,
  FLAG_PLACEHOLDER,
  countryCodeSchema,
  createI18n,
  findByCode,
  flagClassName,
  flagModuleId,
  flagUrl,
  getCountries,
  hasFlag,
  translator,
} from '../index.js';

const ua = translator(createI18n('ua'));
const en = translator(createI18n('en_GB'));

describe('the country list', () => {
  it('holds about 73 countries with unique two-letter codes', () => {
    expect(COUNTRIES).toHaveLength(73);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const c of COUNTRIES) expect(countryCodeSchema.parse(c.code)).toBe(c.code);
  });

  it('holds every country docs/product.md names', () => {
    const named = [
      ['GB', 'Great Britain'],
      ['CH', 'Switzerland'],
      ['NO', 'Norway'],
      ['IS', 'Iceland'],
      ['UA', 'Ukraine'],
      ['MD', 'Moldova'],
      ['RS', 'Serbia'],
      ['TR', 'Turkey'],
      ['GE', 'Georgia'],
      ['IL', 'Israel'],
      ['LB', 'Lebanon'],
      ['CA', 'Canada'],
      ['US', 'United States'],
      ['BR', 'Brazil'],
      ['AR', 'Argentina'],
      ['UY', 'Uruguay'],
      ['PY', 'Paraguay'],
      ['VE', 'Venezuela'],
      ['CL', 'Chile'],
      ['MX', 'Mexico'],
      ['AU', 'Australia'],
      ['NZ', 'New Zealand'],
      ['JP', 'Japan'],
      ['IN', 'India'],
      ['TH', 'Thailand'],
      ['ZA', 'South Africa'],
      ['EG', 'Egypt'],
      ['AZ', 'Azerbaijan'],
      ['AQ', 'Antarctica'],
    ];
    for (const [code, original] of named)
      expect(findByCode(code), code).toEqual({ code, original });
  });

  it('holds every EU state and the European microstates', () => {
    const eu =
      'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' ');
    const micro = 'AD MC SM VA LI'.split(' ');
    for (const code of [...eu, ...micro]) expect(findByCode(code), code).toBeDefined();
  });
});

describe('getCountries', () => {
  it('in ua: Ukrainian names, sorted by Ukrainian collation, Австралія first', () => {
    const list = getCountries(ua, 'ua');
    expect(list).toHaveLength(73);
    expect(list[0]).toEqual({ code: 'AU', original: 'Australia', name: 'Австралія' });
    expect(list.slice(0, 4).map((c) => c.name)).toEqual([
      'Австралія',
      'Австрія',
      'Азербайджан',
      'Албанія',
    ]);
    // Є, І and Ї follow the Ukrainian alphabet, not their code points.
    const names = list.map((c) => c.name);
    expect(names.indexOf('Єгипет')).toBeGreaterThan(names.indexOf('Естонія'));
    expect(names.indexOf('Єгипет')).toBeLessThan(names.indexOf('Ізраїль'));
    expect(names.indexOf('Ізраїль')).toBeLessThan(names.indexOf('Канада'));
    expect(names.at(-1)).toBe('Японія');
    const collator = new Intl.Collator('uk-UA');
    expect([...names].sort(collator.compare)).toEqual(names);
  });

  it('in en_GB: English names, Albania, Andorra, Antarctica first', () => {
    const list = getCountries(en, 'en_GB');
    expect(list.slice(0, 4).map((c) => c.name)).toEqual([
      'Albania',
      'Andorra',
      'Antarctica',
      'Argentina',
    ]);
    expect(list.at(-1)?.name).toBe('Venezuela');
    const names = list.map((c) => c.name);
    expect([...names].sort(new Intl.Collator('en-GB').compare)).toEqual(names);
  });

  it('every country has a real name in both locales', () => {
    for (const t of [ua, en]) {
      for (const c of getCountries(t))
        expect(c.name, c.code).not.toMatch(/Missing translation|country_name/);
    }
  });

  it('defaults to ua and returns a fresh array', () => {
    const a = getCountries(ua);
    a.pop();
    expect(getCountries(ua)).toHaveLength(73);
    expect(getCountries(ua)[0]?.code).toBe('AU');
  });
});

describe('findByCode', () => {
  it('finds by code in any case, with or without a display name', () => {
    expect(findByCode('gb')).toEqual({ code: 'GB', original: 'Great Britain' });
    expect(findByCode(' xk ', ua)).toEqual({ code: 'XK', original: 'Kosovo', name: 'Косово' });
    expect(findByCode('UA', en)).toEqual({ code: 'UA', original: 'Ukraine', name: 'Ukraine' });
  });
  it('gives undefined for unknown, empty or missing codes', () => {
    expect(findByCode('RU')).toBeUndefined();
    expect(findByCode('ZZ', ua)).toBeUndefined();
    expect(findByCode('')).toBeUndefined();
    expect(findByCode(null)).toBeUndefined();
  });
});

describe('flags', () => {
  const require = createRequire(import.meta.url);
  const flagDir = join(dirname(require.resolve('flag-icons/package.json')), 'flags', '4x3');
  const shipped = readdirSync(flagDir)
    .map((f) => f.replace(/\.svg$/, ''))
    .filter((c) => /^[a-z]{2}$/.test(c) && c !== 'xx');

  it('the flag code list matches the installed flag-icons', () => {
    expect([...FLAG_CODES].sort()).toEqual(shipped.sort());
  });

  it('every listed country has a flag file, Kosovo and Antarctica included', () => {
    for (const c of COUNTRIES) {
      expect(hasFlag(c.code), c.code).toBe(true);
      expect(require.resolve(flagModuleId(c.code)!), c.code).toMatch(
        /flags[\\/]4x3[\\/][a-z]{2}\.svg$/,
      );
    }
  });

  it('gives module ids, URLs and classes, and the placeholder without a flag', () => {
    expect(flagModuleId('PL')).toBe('flag-icons/flags/4x3/pl.svg');
    expect(flagUrl('GB')).toBe('/flags/4x3/gb.svg');
    expect(flagUrl('xk', 'https://cdn.example.com/flags/')).toBe(
      'https://cdn.example.com/flags/xk.svg',
    );
    expect(flagClassName('UA')).toBe('fi fi-ua');
    for (const code of ['ZZ', 'XX', '', null, undefined]) {
      expect(hasFlag(code)).toBe(false);
      expect(flagUrl(code)).toBe(FLAG_PLACEHOLDER);
    }
    expect(flagModuleId('ZZ')).toBeNull();
    expect(flagClassName('ZZ')).toBeNull();
  });

  it('the placeholder is a valid SVG data URI', () => {
    expect(FLAG_PLACEHOLDER.startsWith('data:image/svg+xml,')).toBe(true);
    const svg = decodeURIComponent(FLAG_PLACEHOLDER.slice('data:image/svg+xml,'.length));
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 640 480">.*<\/svg>$/,
    );
  });
});
