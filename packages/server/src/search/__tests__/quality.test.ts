import type { ServiceSearchQuery } from '@poruch/core';
import { serviceSearchQuerySchema } from '@poruch/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.js';
import { freshDatabase } from '../../__tests__/helpers/server.js';
import { searchServices, setSearchCache } from '../index.js';
import { buildWordIndex, setWordIndex } from '../wordIndex.js';
import { insertCatalogue } from './catalogue.js';

/**
 * The search quality set (docs/performance.md, Search): each query with the services that must
 * come first. `top` lists keys that must all be among the first `top.length` results (order
 * inside free); `first` must be the very first.
 */
interface Case {
  q: string;
  first?: string;
  top?: string[];
  filters?: Record<string, string>;
  why: string;
}

const CASES: Case[] = [
  // Cyrillic: exact, prefix, typos, case, Russian spellings, category words.
  { q: 'перукарня', first: 'perukarnia', why: 'exact word in the name' },
  { q: 'Перукарня Калина', first: 'perukarnia', why: 'two words, mixed case' },
  { q: 'перукар', top: ['perukarnia', 'barber'], why: 'prefix and category synonym' },
  { q: 'перукраня', first: 'perukarnia', why: 'transposition typo (one edit)' },
  { q: 'перекурня', first: 'perukarnia', why: 'two substitutions in a long word' },
  { q: 'Київ', top: ['restaurant_kyiv', 'barber'], why: 'Cyrillic finds Latin "Kyiv" too' },
  { q: 'КИЇВ', top: ['restaurant_kyiv', 'barber'], why: 'capitals' },
  { q: 'Киев', top: ['restaurant_kyiv', 'barber'], why: 'Russian spelling' },
  { q: 'Львів', first: 'cafe_lviv', why: 'city word, prefix of "Львівська"' },
  { q: 'Харків', first: 'restaurant_kharkiv', why: 'name beats original place' },
  { q: 'Харьков', first: 'restaurant_kharkiv', why: 'Russian spelling, one edit' },
  { q: 'юрист', top: ['lawyer', 'immigration'], why: 'category synonym' },
  { q: 'адвокат', first: 'lawyer', why: 'name word' },
  { q: 'стоматолог', first: 'dentist', why: 'prefix of the name word' },
  { q: 'стамотологія', first: 'dentist', why: 'transposition typo' },
  { q: 'переклад документів', first: 'translator', why: 'two words, prefix and description' },
  { q: 'вареники', top: ['restaurant_kharkiv', 'restaurant_kyiv'], why: 'description word' },
  { q: 'паляниця', first: 'bakery', why: 'name word' },
  { q: 'палянеця', first: 'bakery', why: 'one substitution' },
  { q: 'ветеринар', first: 'vet', why: 'prefix of the name word' },
  { q: 'психолог', first: 'psychologist', why: 'name word' },
  { q: 'йога', first: 'yoga', why: 'Cyrillic finds the Latin name "Yoga"' },
  {
    q: 'школа',
    top: ['it_school', 'saturday_school', 'football'],
    why: 'every school by name',
  },
  { q: 'суботня школа', first: 'saturday_school', why: 'two words' },
  { q: 'вишиванка', first: 'atelier', why: 'name word' },
  { q: 'сало гречка', first: 'shop', why: 'two description words' },
  { q: 'Одеса', first: 'odesa', why: 'name word' },
  { q: 'гопак', first: 'dance', why: 'lower case' },
  { q: 'Карпати', first: 'carpathians', why: 'prefix of an inflected form' },
  { q: 'КРАКІВ', first: 'krakow_tours', why: 'Ukrainian spelling finds "Kraków"' },
  { q: 'прибирання', first: 'cleaning', why: 'description and category word' },
  { q: 'майстер', first: 'handyman', why: 'service with no category' },
  { q: 'перевезення посилки', first: 'transport', why: 'name and description words' },
  { q: 'лікар', first: 'family_doctor', why: 'name word beats category synonym' },
  { q: 'йгоа', first: 'yoga', why: 'transposition in a 4-letter word' },
  {
    q: 'кшола',
    top: ['it_school', 'saturday_school', 'football'],
    why: 'ш swapped: 1 edit, not 2',
  },
  { q: 'вишеванка', first: 'atelier', why: 'one substitution next to ш' },
  // Latin: transliterated, alternative spellings, typos, accents.
  { q: 'perukarnia', first: 'perukarnia', why: 'KMU transliteration' },
  { q: 'perukarnya', first: 'perukarnia', why: '"ya" spelling' },
  { q: 'Kyiv', top: ['restaurant_kyiv', 'barber'], why: 'Latin finds "Київ" too' },
  { q: 'kiev', top: ['restaurant_kyiv', 'barber'], why: 'old spelling' },
  { q: 'Lviv', first: 'cafe_lviv', why: 'Latin finds "Львівська"' },
  { q: 'kharkiv', first: 'restaurant_kharkiv', why: 'Latin finds "Харків"' },
  { q: 'kharkov', first: 'restaurant_kharkiv', why: 'Russian-based spelling' },
  { q: 'lawyer', top: ['immigration', 'lawyer'], why: 'name prefix and category label' },
  { q: 'Krakow', first: 'krakow_tours', why: 'accent folded' },
  { q: 'Kraków', first: 'krakow_tours', why: 'accent kept' },
  { q: 'dentist', first: 'dentist', why: 'category synonym and description prefix' },
  { q: 'dentsit', first: 'dentist', why: 'transposition typo' },
  { q: 'translator', first: 'translator', why: 'category synonym' },
  { q: 'haircuts', top: ['perukarnia', 'barber'], why: 'English description word' },
  { q: 'barbershop', first: 'barber', why: 'English name word' },
  { q: 'barbershp', first: 'barber', why: 'one deletion' },
  { q: 'BABERSHOP', first: 'barber', why: 'one deletion, capitals' },
  { q: 'yoga online', first: 'yoga', why: 'two English words' },
  { q: 'palianytsia', first: 'bakery', why: 'KMU of "паляниця"' },
  { q: 'stomatolohiia', first: 'dentist', why: 'KMU of "стоматологія"' },
  { q: 'Smith immigration', first: 'immigration', why: 'two English words' },
  { q: 'odessa', first: 'odesa', why: 'doubled letter folded' },
  { q: 'Julia', first: 'realtor', why: '"Юлія" in Latin' },
  { q: 'borscht', first: 'restaurant_kharkiv', why: 'English description' },
  { q: 'veterinary', first: 'vet', why: 'category synonym' },
  { q: 'hopak', first: 'dance', why: 'KMU of "гопак"' },
  { q: 'Dnipro', first: 'webstudio', why: 'Latin name' },
  { q: 'Дніпро', first: 'webstudio', why: 'Cyrillic finds the Latin name' },
  { q: 'Zürich', first: 'architect', why: 'city with an accent' },
  { q: 'zurich', first: 'architect', why: 'city without the accent' },
  { q: 'Łódź', first: 'translator', why: 'Polish letters' },
  { q: 'lodz', first: 'translator', why: 'Polish letters folded' },
  { q: 'yoag', first: 'yoga', why: 'transposition at the end of a 4-letter word' },
  // Filters with a query.
  { q: 'школа', filters: { country: 'GB' }, first: 'saturday_school', why: 'country filter' },
  {
    q: 'ресторан',
    filters: { country: 'PL', category: 'food' },
    first: 'restaurant_kharkiv',
    why: 'country and category',
  },
  { q: 'психолог', filters: { online: 'true' }, first: 'psychologist', why: 'online filter' },
  {
    q: 'ukrainian',
    filters: { hasVacancy: 'true' },
    first: 'restaurant_kharkiv',
    why: 'has vacancy',
  },
];

let database: Database;
let drop: () => Promise<void>;
let keyOf: Map<string, string>;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  const ids = await insertCatalogue(database.db);
  keyOf = new Map([...ids].map(([k, id]) => [id, k]));
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const search = (q: string, filters: Record<string, string> = {}) =>
  searchServices(
    database.db,
    serviceSearchQuerySchema.parse({ q, ...filters }) as ServiceSearchQuery,
  );

describe('search quality set', () => {
  it('has at least 40 queries in each script', () => {
    const cyrillic = CASES.filter((c) => /\p{Script=Cyrillic}/u.test(c.q));
    expect(cyrillic.length).toBeGreaterThanOrEqual(20);
    expect(CASES.length - cyrillic.length).toBeGreaterThanOrEqual(20);
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });
});

// Through the word index (wordIndex.ts) and through SQL alone: each case in both, the result
// cache off so each computes its own page.
describe.each([
  { index: true, path: 'word index' },
  { index: false, path: 'SQL' },
])('search quality set, $path', ({ index }) => {
  beforeAll(async () => {
    setSearchCache(false);
    setWordIndex(index);
    if (index) expect(await buildWordIndex(database.db)).toBe(true);
  });
  afterAll(() => {
    setSearchCache(true);
    setWordIndex(true);
  });

  it.each(CASES)('$q → $first $top ($why)', async ({ q, first, top, filters }) => {
    const page = await search(q, filters);
    const keys = page.items.map((i) => keyOf.get(i.id));
    if (first) expect(keys[0], `results: ${keys.join(', ')}`).toBe(first);
    if (top) {
      expect(new Set(keys.slice(0, top.length)), `results: ${keys.join(', ')}`).toEqual(
        new Set(top),
      );
    }
    expect(keys).not.toContain('pending_salon');
    expect(keys).not.toContain('declined_bakery');
  });
});
