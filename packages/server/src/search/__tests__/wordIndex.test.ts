import { serviceSearchQuerySchema, type ServiceSearchQuery } from '@poruch/core';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/index.js';
import { textMatches } from '../../map/textMatches.js';
import { buildTextQuery, searchServices, setSearchCache } from '../index.js';
import { rankExpression } from '../searchQuery.js';
import { buildWordIndex, setWordIndex, wordIndexOf } from '../wordIndex.js';
import { insertCatalogue } from './catalogue.js';
import { otherInstance, searchTestDatabase } from './testDatabase.js';

/**
 * The word index (src/search/wordIndex.ts): its pages are the SQL path's, its rank is ts_rank's,
 * and a write shows in the next search (and, on PostgreSQL, in another instance's).
 */
let keys: Map<string, string>;
const t = searchTestDatabase({
  cacheOff: true,
  setup: async (db) => {
    keys = await insertCatalogue(db);
  },
});

afterEach(() => setWordIndex(true));

const parse = (query: Record<string, string | number | boolean>) =>
  serviceSearchQuerySchema.parse(
    Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  ) as ServiceSearchQuery;

/** What users type: whole words, prefixes of 1-6 letters in both scripts, typos, several words. */
const QUERIES = [
  'перукарня',
  'Перукарня Калина',
  'перукар',
  'перукраня',
  'перекурня',
  'Київ',
  'Киев',
  'Львів',
  'Харьков',
  'юрист',
  'стамотологія',
  'переклад документів',
  'вареники',
  'палянеця',
  'школа',
  'п',
  'пе',
  'пер',
  'перу',
  'ка',
  'ко',
  'ш',
  'шк',
  'шко',
  'k',
  'ky',
  'kyi',
  'kyiv',
  'bar',
  'school',
  'cafe kyiv',
  'кафе льв',
  'ре ки',
  'a b',
  'lawyer berlin',
  'psycholog online',
  'zzzz',
  // Typos of 4-10 letters, both scripts, one and two words.
  'перукарна',
  'перукрня',
  'стоматолгія',
  'стамотолог',
  'адвакат',
  'адвокта',
  'психолх',
  'ресторна',
  'ресторан харків',
  'рестран кеїв',
  'пекрня',
  'паляниуя',
  'ветеринрна',
  'фотограв',
  'шевчк',
  'автосрвіс',
  'школла',
  'сбуботня',
  'перевезенян',
  'мельнк',
  'ательє вишивнка',
  'barbershp',
  'barbreshop',
  'lawyres',
  'imigration',
  'cleening',
  'ukrainain',
  'krakow tuors',
  'studoi',
  'dnirpo',
  'partnres',
  'perukarnja',
  'stomatologia',
  'kyiw',
];

/** Filters and sorts the index answers itself (bbox and radius take the SQL path). */
const VARIANTS: Record<string, string | number | boolean>[] = [
  {},
  { country: 'PL' },
  { country: 'DE' },
  { category: 'food' },
  { category: 'empty' },
  { online: true },
  { hasVacancy: true },
  { onMap: true },
  { sort: 'newest' },
  { page: 2, pageSize: 2 },
  { pageSize: 3, sort: 'newest', page: 2 },
  { page: 3, pageSize: 2 },
  { country: 'PL', page: 2, pageSize: 1 },
  { online: true, sort: 'newest' },
  { near: '50.45,30.52' },
];

const summary = (page: { items: { id: string; distanceKm?: number | null }[]; total: number }) =>
  JSON.stringify({ ids: page.items.map((i) => i.id), total: page.total, page });

/** Asserts the page through the index equals the SQL path's; the number of items compared. */
async function sameAsSql(
  q: string,
  v: Record<string, string | number | boolean>,
  label = '',
): Promise<number> {
  const query = parse({ q, ...v });
  setWordIndex(true);
  const indexed = await searchServices(t.db, query);
  setWordIndex(false);
  const plain = await searchServices(t.db, query);
  setWordIndex(true);
  expect(summary(indexed), `${label}${q} ${JSON.stringify(v)}`).toBe(summary(plain));
  return plain.items.length;
}

describe('word index', () => {
  it('builds, and answers through the index', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    expect(await wordIndexOf(t.db)).not.toBeNull();
  });

  it('gives the pages of the SQL path: ids, order, total, for every query and filter', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    let compared = 0;
    for (const [i, q] of QUERIES.entries()) {
      // Each query unfiltered and with three of the variants, in turn (each variant ~17 times).
      const variants = [{}, ...[1, 2, 3].map((k) => VARIANTS[(i * 3 + k) % VARIANTS.length]!)];
      for (const v of variants) compared += await sameAsSql(q, v);
    }
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  it('finds the corrections poruch_query_words finds, in memory', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    const index = (await wordIndexOf(t.db))!;
    let corrected = 0;
    for (const q of QUERIES) {
      const inMemory = await buildTextQuery(t.db, q, { words: index.candidates });
      const stored = await buildTextQuery(t.db, q, { scope: 'services' });
      expect(inMemory?.corrections, q).toEqual(stored?.corrections);
      corrected += inMemory?.corrections.size ?? 0;
    }
    expect(corrected).toBeGreaterThan(30);
  });

  it('answers a never-seen search without a statement', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    const execute = vi.spyOn(t.db, 'execute');
    try {
      for (const q of ['пе', 'перукрня', 'kyiw sty', 'ресторан харків']) {
        const page = await searchServices(t.db, parse({ q, page: 1 }));
        expect(page.items.length, q).toBeGreaterThan(0);
      }
      expect(execute).not.toHaveBeenCalled();
    } finally {
      execute.mockRestore();
    }
  });

  it('ranks as ts_rank does, to the bit, and matches what @@ matches', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    const index = (await wordIndexOf(t.db))!;
    expect(index).not.toBeNull();
    let ranked = 0;
    for (const q of QUERIES) {
      const tq = await buildTextQuery(t.db, q);
      if (!tq) continue;
      const slots = index.match(tq, { category: 'all' });
      const res = await t.db.execute(sql`
        SELECT id::text AS id, ${rankExpression(sql`search_doc`, tq)}::float8 AS rank FROM services
         WHERE search_doc @@ to_tsquery('simple', ${tq.match})
           AND status = 'approved' AND confirmation <> 'lapsed'`);
      const rows = (res as unknown as { rows: { id: string; rank: number }[] }).rows;
      const want = new Map(rows.map((r) => [r.id, Number(r.rank)]));
      const ids = slots.map((s) => index.id(s));
      expect(new Set(ids), q).toEqual(new Set(want.keys()));
      const rank = index.rank(tq, slots);
      ids.forEach((id, i) => {
        expect(rank[i], `${q}: ${id}`).toBe(want.get(id));
        ranked++;
      });
    }
    expect(ranked).toBeGreaterThan(150);
  });

  it('shows every write in the next search and map answer', async () => {
    setSearchCache(true);
    try {
      expect(await buildWordIndex(t.db)).toBe(true);
      const q = (text: string, extra: Record<string, string | boolean> = {}) =>
        searchServices(t.db, parse({ q: text, ...extra }));
      const names = async (text: string, extra: Record<string, string | boolean> = {}) =>
        (await q(text, extra)).items.map((i) => i.name);
      const onMap = async (text: string) =>
        (await textMatches(t.db, { category: 'all' }, text)) ?? [];
      // A new approved service, then an edit of its name.
      await t.db.execute(sql`
        INSERT INTO services (name, country_code, status, lat, lng, show_on_map)
        VALUES ('Палітурня Корінець', 'FR', 'approved', 48.85, 2.35, true)`);
      expect(await names('палітур')).toEqual(['Палітурня Корінець']);
      const [row] = (
        (await t.db.execute(
          sql`SELECT id::text AS id FROM services WHERE name = 'Палітурня Корінець'`,
        )) as unknown as { rows: { id: string }[] }
      ).rows;
      const id = row!.id;
      expect(await onMap('палітур')).toEqual([id]);
      await t.db.execute(sql`UPDATE services SET name = 'Друкарня Корінець' WHERE id = ${id}`);
      expect(await names('палітур')).toEqual([]);
      expect(await names('друкар')).toContain('Друкарня Корінець');
      // Off the map, back on it.
      await t.db.execute(sql`UPDATE services SET show_on_map = false WHERE id = ${id}`);
      expect(await onMap('корін')).toEqual([]);
      expect(await names('корін', { onMap: true })).toEqual([]);
      await t.db.execute(sql`UPDATE services SET show_on_map = true WHERE id = ${id}`);
      expect(await onMap('корін')).toEqual([id]);
      // A used mark changes the count shown.
      await t.db.execute(sql`UPDATE services SET used_count = 7 WHERE id = ${id}`);
      expect((await q('корін')).items[0]!.usedCount).toBe(7);
      // A category's terms change (a notification without a payload): the index is dropped and
      // built again; the SQL path answers meanwhile, and the index answers again once built.
      await t.db.execute(sql`UPDATE search_category_terms SET terms = terms`);
      expect(await wordIndexOf(t.db)).toBeNull();
      expect(await names('друкар')).toContain('Друкарня Корінець');
      expect(await buildWordIndex(t.db)).toBe(true);
      expect(await wordIndexOf(t.db)).not.toBeNull();
      expect(await names('корін', { online: false })).toEqual(['Друкарня Корінець']);
      // Declined, approved again, overdue (ranks last), deleted.
      await t.db.execute(sql`UPDATE services SET status = 'declined' WHERE id = ${id}`);
      expect(await names('корін')).toEqual([]);
      expect(await onMap('корін')).toEqual([]);
      await t.db.execute(sql`UPDATE services SET status = 'approved' WHERE id = ${id}`);
      expect(await names('корін')).toEqual(['Друкарня Корінець']);
      await t.db.execute(sql`DELETE FROM services WHERE id = ${id}`);
      expect(await names('корін')).toEqual([]);
      expect(await onMap('корін')).toEqual([]);
      // Every change since came through the index (it was not dropped for a rebuild).
      expect(await wordIndexOf(t.db)).not.toBeNull();
    } finally {
      setSearchCache(false);
    }
  });

  it("keeps the prefix table's pages equal to the SQL path's through every kind of write", async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    const prefixes = ['п', 'пе', 'пер', 'кор', 'д', 'ka', 'ko', 'dr'];
    const variants: Record<string, string | number | boolean>[] = [
      {},
      { onMap: true },
      { country: 'FR', page: 2, pageSize: 1 },
    ];
    const same = async (step: string) => {
      for (const q of prefixes) for (const v of variants) await sameAsSql(q, v, `${step}: `);
    };
    const run = (statement: ReturnType<typeof sql>) => t.db.execute(statement);
    // New services that rank first (their names start with the prefixes), one overdue.
    await run(sql`
      INSERT INTO services (name, country_code, status, lat, lng, show_on_map, description_ua)
      VALUES ('Палітурня Корінець', 'FR', 'approved', 48.85, 2.35, true, 'Палітурні роботи'),
             ('Пекарня Корж', 'FR', 'approved', 48.86, 2.36, false, 'Корж, пиріг'),
             ('Друкарня Перо', 'FR', 'pending', NULL, NULL, false, '')`);
    const id = async (name: string) =>
      (
        (await t.db.execute(
          sql`SELECT id::text AS id FROM services WHERE name = ${name}`,
        )) as unknown as { rows: { id: string }[] }
      ).rows[0]!.id;
    const a = await id('Палітурня Корінець');
    const b = await id('Пекарня Корж');
    const c = await id('Друкарня Перо');
    await same('inserted');
    await run(sql`UPDATE services SET status = 'approved' WHERE id = ${c}`);
    await same('approved');
    await run(sql`UPDATE services SET name = 'Коректура Перо' WHERE id = ${a}`);
    await same('edited');
    await run(sql`UPDATE services SET show_on_map = NOT show_on_map WHERE id IN (${a}, ${b})`);
    await same('map flag');
    await run(sql`UPDATE services SET used_count = 5 WHERE id = ${b}`);
    await same('used mark');
    await run(sql`UPDATE services SET confirmation = 'overdue' WHERE id = ${c}`);
    await same('overdue');
    await run(sql`UPDATE services SET status = 'declined' WHERE id = ${b}`);
    await same('declined');
    await run(sql`UPDATE services SET confirmation = 'lapsed' WHERE id = ${c}`);
    await same('lapsed');
    await run(sql`DELETE FROM services WHERE id IN (${a}, ${b}, ${c})`);
    await same('deleted');
    // Every change came through the index (it was not dropped for a rebuild).
    expect(await wordIndexOf(t.db)).not.toBeNull();
  }, 60_000);

  it('gives every field of a page exactly as the SQL path, in either packing of a summary', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    const run = (statement: ReturnType<typeof sql>) => t.db.execute(statement);
    // One in windows-1251 (Ukrainian, its punctuation), one with characters outside it (UTF-8).
    await run(sql`
      INSERT INTO services (name, country_code, status, lat, lng, address, website, phone,
        description_ua, description_other, is_partner, confirmed_at, created_at)
      VALUES ('Гравірування «Ґанок» №1', 'PL', 'approved', 52.2297123, 21.0122456,
              'вул. Їжакова, 5 — двір', 'https://ganok.example', '+48 600 000 001',
              'Гравіюємо: метал, дерево’ скло… «Є» і «ї»', '', true,
              '2026-03-04T05:06:07.891234Z', '2025-01-02T03:04:05.678901Z'),
             ('Гравер Łódź ☕', 'PL', 'approved', NULL, NULL, 'ul. Piotrkowska 1, Łódź', '', '',
              'Гравер 🙂', 'Grawer — Zürich, Łódź', false, NULL, '2025-01-02T03:04:05.678Z')`);
    const variants: Record<string, string>[] = [{}, { sort: 'newest' }, { near: '52.2,21.0' }];
    const check = async (step: string) => {
      for (const q of ['гр', 'грав', 'гравер', 'lodz'])
        for (const v of variants) expect(await sameAsSql(q, v, `${step}: `)).toBeGreaterThan(0);
    };
    await check('inserted');
    await run(sql`UPDATE services SET used_count = used_count + 3 WHERE name LIKE 'Грав%'`);
    await check('used mark');
    await run(sql`DELETE FROM services WHERE name LIKE 'Грав%'`);
    expect(await wordIndexOf(t.db)).not.toBeNull();
  });

  it('keeps the map and the search in agreement through the index', async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    for (const q of ['ка', 'школа', 'kyiv', 'перукар', 'кафе льв']) {
      const ids = (await textMatches(t.db, { category: 'all' }, q))!;
      const page = await searchServices(t.db, parse({ q, onMap: true, pageSize: 50 }));
      expect(new Set(ids), q).toEqual(new Set(page.items.map((i) => i.id)));
    }
    expect(keys.size).toBeGreaterThan(0);
  });
});

describe.runIf(process.env.PORUCH_TEST_DB === 'postgres')('word index, two instances', () => {
  let other: Database;
  beforeAll(async () => {
    other = await otherInstance(t.db);
  });
  afterAll(() => other?.close());

  it("sees another instance's writes", async () => {
    expect(await buildWordIndex(t.db)).toBe(true);
    const query = parse({ q: 'гравер' });
    expect((await searchServices(t.db, query)).total).toBe(0);
    await other.db.execute(sql`
      INSERT INTO services (name, country_code, status) VALUES ('Гравер Іван', 'FR', 'approved')`);
    await expect
      .poll(async () => (await searchServices(t.db, query)).total, { timeout: 5000, interval: 20 })
      .toBe(1);
    expect(await wordIndexOf(t.db)).not.toBeNull();
    await other.db.execute(sql`UPDATE services SET status = 'declined' WHERE name = 'Гравер Іван'`);
    await expect
      .poll(async () => (await searchServices(t.db, query)).total, { timeout: 5000, interval: 20 })
      .toBe(0);
  });
});
