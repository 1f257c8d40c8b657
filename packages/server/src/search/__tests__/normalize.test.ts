import { CATEGORY_KEYS, TRANSLATIONS } from '@poruch/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.js';
import { freshDatabase } from '../../__tests__/helpers/server.js';
import { editDistance } from '../editDistance.js';
import { queryTokens, searchKey, transliterate } from '../normalize.js';
import { CATALOGUE } from './catalogue.js';

describe('transliterate (KMU 2010)', () => {
  // The examples of the resolution's table.
  it.each([
    ['Алушта', 'Alushta'],
    ['Борщагівка', 'Borshchahivka'],
    ['Вінниця', 'Vinnytsia'],
    ['Галич', 'Halych'],
    ['Ґорґани', 'Gorgany'],
    ['Дон', 'Don'],
    ['Рівне', 'Rivne'],
    ['Єнакієве', 'Yenakiieve'],
    ['Гаєвич', 'Haievych'],
    ['Житомир', 'Zhytomyr'],
    ['Закарпаття', 'Zakarpattia'],
    ['Медвин', 'Medvyn'],
    ['Іршава', 'Irshava'],
    ['Їжакевич', 'Yizhakevych'],
    ['Кадиївка', 'Kadyivka'],
    ['Йосипівка', 'Yosypivka'],
    ['Стрий', 'Stryi'],
    ['Олексій', 'Oleksii'],
    ['Харків', 'Kharkiv'],
    ['Біла Церква', 'Bila Tserkva'],
    ['Чернівці', 'Chernivtsi'],
    ['Шостка', 'Shostka'],
    ['Гоща', 'Hoshcha'],
    ['Юрій', 'Yurii'],
    ['Корюківка', 'Koriukivka'],
    ['Яготин', 'Yahotyn'],
    ['Костянтин', 'Kostiantyn'],
    ['Знам’янка', 'Znamianka'],
    ["Знам'янка", 'Znamianka'],
    ['Згорани', 'Zghorany'],
    ['Розгон', 'Rozghon'],
    ['Львів', 'Lviv'],
    ['Київ', 'Kyiv'],
    ['КИЇВ', 'KYIV'],
    ['Щастя', 'Shchastia'],
    ['перукарня', 'perukarnia'],
    ['Kraków 12', 'Kraków 12'],
  ])('%s → %s', (ua, latin) => {
    expect(transliterate(ua)).toBe(latin);
  });
});

describe('searchKey', () => {
  it.each([
    ['Київ', 'kiv'],
    ['Kyiv', 'kiv'],
    ['KYIV', 'kiv'],
    ['Kiev', 'kiev'],
    ['Киев', 'kiev'],
    ['Перукарня «Калина»', 'perukarnia kalina'],
    ['perukarnya', 'perukarnia'],
    ['Одеса', 'odesa'],
    ['Odessa', 'odesa'],
    ['Юлія', 'iulia'],
    ['Julia', 'iulia'],
    ['Yulia', 'iulia'],
    ['Kraków', 'krakov'],
    ['Łódź', 'lodz'],
    ['Zürich', 'zurich'],
    ['Straße', 'strase'],
    ["Кав'ярня", 'kaviarnia'],
    ['Кав’ярня', 'kaviarnia'],
    ['Згорани', 'zghorani'],
    ['Щастя', 'shchastia'],
    ['Съёмка, Эхо, Ы', 'siomka ekho i'],
    ['  IT-школа   №1 ', 'it shkola 1'],
    ['', ''],
  ])('%s → %s', (text, key) => {
    expect(searchKey(text)).toBe(key);
  });

  it('folds away the differences of KMU word-start letters', () => {
    for (const word of ['Єнакієве', 'Їжакевич', 'Йосипівка', 'Юрій', 'Яготин', 'Стрий', 'Київ']) {
      expect(searchKey(word)).toBe(searchKey(transliterate(word)));
    }
  });

  it('queryTokens: distinct words, stop words dropped unless nothing else is left', () => {
    expect(queryTokens('Перукарня і салон та перукарня')).toEqual(['perukarnia', 'salon']);
    expect(queryTokens('the and')).toEqual(['the', 'and']);
    expect(queryTokens('«»')).toEqual([]);
    expect(queryTokens('a b c d e f g h i j k', 3)).toEqual(['b', 'c', 'd']);
  });
});

describe('editDistance', () => {
  it.each([
    ['perukarnia', 'perukarnia', 0],
    ['perukrania', 'perukarnia', 1],
    ['kiev', 'kiv', 1],
    ['kitten', 'sitting', 3],
    ['dentsit', 'dentist', 1],
    ['', 'abc', 3],
  ])('%s ↔ %s = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
  it('stops at the limit', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('the SQL side (migration 0002_search.sql)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await freshDatabase());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const sqlKeys = async (inputs: string[]) => {
    const res = await database.db.execute(
      sql`SELECT poruch_search_key(i) AS k FROM json_array_elements_text(${JSON.stringify(inputs)}::json) WITH ORDINALITY AS t(i, n) ORDER BY n`,
    );
    return (res as unknown as { rows: { k: string }[] }).rows.map((r) => r.k);
  };

  it('poruch_search_key equals searchKey on ASCII, Latin-1, Latin Extended-A and Cyrillic', async () => {
    const chars: string[] = [];
    for (let c = 0x20; c < 0x180; c++) chars.push(String.fromCodePoint(c));
    for (let c = 0x400; c < 0x460; c++) chars.push(String.fromCodePoint(c));
    const inputs = chars.map((c) => `a${c}b ${c}x ${c}${c} ${c.toUpperCase()}o`);
    const expected = inputs.map(searchKey);
    expect(await sqlKeys(inputs)).toEqual(expected);
  });

  it('poruch_search_key equals searchKey on the catalogue and on tricky words', async () => {
    const inputs = [
      ...CATALOGUE.flatMap((s) => [s.name, s.address, s.city, s.descriptionUa, s.descriptionOther]),
      'Єнакієве Їжакевич Йосипівка Юрій Яготин Згорани ЗГОРАНИ зґ',
      'ПОДВІР’ЇВ Знам\u02BCянка Об`єкт l\u2018ecole',
      'Съёмка Эхо ЪЫ ёлка',
      'Dvořák Ærø Œuvre ŁÓDŹ İstanbul ŞIŞLI',
    ];
    expect(await sqlKeys(inputs)).toEqual(inputs.map(searchKey));
  });

  it('has the ua and en labels of every category', async () => {
    const res = await database.db.execute(
      sql`SELECT category, poruch_search_key(terms) AS terms FROM search_category_terms`,
    );
    const rows = (res as unknown as { rows: { category: string; terms: string }[] }).rows;
    expect(rows.map((r) => r.category).sort()).toEqual([...CATEGORY_KEYS].sort());
    for (const { category, terms } of rows) {
      for (const locale of ['ua', 'en_GB'] as const) {
        const label = (TRANSLATIONS[locale] as any).category[category] as string;
        expect(` ${terms} `, `${locale} label of ${category}`).toContain(` ${searchKey(label)} `);
      }
    }
  });
});
