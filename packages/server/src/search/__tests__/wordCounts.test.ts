import { serviceSearchQuerySchema, type ServiceSearchQuery } from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOTAL_CAP, lookupWords, queryTokens, searchServices } from '../index.js';
import { setWordIndex } from '../wordIndex.js';
import { miscountedWords } from './wordCounts.js';
import { searchTestDatabase } from './testDatabase.js';

/**
 * The document counts of search_words (migration 0010): exact after every kind of write, and
 * what a one-word query over all approved services uses to say "1000+" without counting.
 */
const t = searchTestDatabase({ cacheOff: true });
// These check the SQL path's reads (the word index answers text queries otherwise; it has its
// own tests in wordIndex.test.ts).
beforeAll(() => setWordIndex(false));
afterAll(() => setWordIndex(true));
const run = (q: ReturnType<typeof sql>) => t.db.execute(q);

const search = (query: Record<string, string | number>) =>
  searchServices(t.db, serviceSearchQuerySchema.parse(query) as ServiceSearchQuery);
const token = (word: string) => queryTokens(word)[0]!;

describe('search_words.services_n', () => {
  it('stays exact through inserts, edits, approvals, declines, deletes and truncation', async () => {
    await run(sql`INSERT INTO services (name, country_code, status, description_ua) VALUES
      ('Перукарня «Чуб»', 'PL', 'approved', 'Стрижки, фарбування.'),
      ('Перукарня Коса', 'DE', 'approved', 'Стрижки.'),
      ('Перукарня на Вокзальній', 'PL', 'pending', 'Стрижки і гоління.'),
      ('Кав''ярня Львів', 'CZ', 'approved', 'Кава, випічка.')`);
    expect(await miscountedWords(t.db)).toEqual([]);
    const count = async (word: string) => {
      const res = await run(
        sql`SELECT services_n AS n FROM search_words WHERE word = ${token(word)}`,
      );
      return (res as unknown as { rows: { n: number }[] }).rows[0]?.n;
    };
    expect(await count('перукарня')).toBe(2);
    expect(await count('стрижки')).toBe(2);
    expect(await count('гоління')).toBe(0); // collected, but only in a pending service

    await run(
      sql`INSERT INTO services (name, country_code, status) VALUES ('Перукарня Оля', 'AT', 'approved')`,
    );
    await run(sql`UPDATE services SET description_ua = 'Манікюр.' WHERE name = 'Перукарня Коса'`);
    await run(sql`UPDATE services SET status = 'approved' WHERE name = 'Перукарня на Вокзальній'`);
    await run(sql`UPDATE services SET status = 'declined', decline_reason = 'Дубль'
      WHERE name = 'Кав''ярня Львів'`);
    expect(await miscountedWords(t.db)).toEqual([]);
    expect(await count('перукарня')).toBe(4);
    expect(await count('стрижки')).toBe(2);
    expect(await count('гоління')).toBe(1);
    expect(await count('манікюр')).toBe(1);
    expect(await count('кава')).toBe(0);

    // An update that changes neither the document nor the approval changes no count.
    await run(sql`UPDATE services SET used_count = used_count + 1, show_on_map = false`);
    expect(await miscountedWords(t.db)).toEqual([]);

    await run(sql`DELETE FROM services WHERE name LIKE 'Перукарня%Ч%' OR name = 'Перукарня Оля'`);
    expect(await miscountedWords(t.db)).toEqual([]);
    expect(await count('перукарня')).toBe(2);

    await run(sql`TRUNCATE services CASCADE`);
    expect(await count('перукарня')).toBe(0);
    expect(await miscountedWords(t.db)).toEqual([]);
  });

  it('bounds the matches of a query word: itself, the words it starts, its corrections', async () => {
    await run(sql`INSERT INTO services (name, country_code, status)
      SELECT 'Фотостудія ' || i, 'PL', 'approved' FROM generate_series(1, 7) AS i`);
    await run(sql`INSERT INTO services (name, country_code, status)
      SELECT 'Фотограф ' || i, 'PL', 'approved' FROM generate_series(1, 3) AS i`);
    const bound = async (word: string) =>
      (await lookupWords(t.db, [token(word)], [token(word)])).atLeast.get(token(word));
    expect(await bound('фотостудія')).toBe(7); // the word itself
    expect(await bound('фото')).toBe(7); // the most frequent word it starts
    expect(await bound('фотограф')).toBe(3);
    expect(await bound('фотостуді')).toBe(7);
    expect(await bound('фотостудйя')).toBe(7); // a correction (a transposition)
    expect(await bound('щось')).toBe(0);
    // Without asking, no bound and, for a short word, no statement at all.
    expect((await lookupWords(t.db, ['abc'])).atLeast.size).toBe(0);
  });

  it('says "1000+" without counting only while more than the cap are approved', async () => {
    await run(sql`INSERT INTO services (name, country_code, status, created_at)
      SELECT 'Ательє ' || i, 'PL', 'approved', now() - make_interval(mins => i)
        FROM generate_series(1, ${TOTAL_CAP + 1}) AS i`);
    let page = await search({ q: 'ательє' });
    expect(page).toMatchObject({ total: TOTAL_CAP, totalIsEstimate: true });
    expect(page.items).toHaveLength(20);
    expect((await search({ q: 'ательє', sort: 'newest' })).totalIsEstimate).toBe(true);

    // One fewer approved: the count drops to the cap, so the matches are counted, exactly.
    await run(sql`UPDATE services SET status = 'pending' WHERE name = 'Ательє 1'`);
    page = await search({ q: 'ательє' });
    expect(page.total).toBe(TOTAL_CAP);
    expect(page.totalIsEstimate).toBeUndefined();
    page = await search({ q: 'ательє', sort: 'newest' });
    expect(page.total).toBe(TOTAL_CAP);
    expect(page.totalIsEstimate).toBeUndefined();
    expect(page.items[0]!.name).toBe('Ательє 2');

    // A filter makes the bound meaningless: with the cap's worth of matches back, a country
    // that has a few of them is counted exactly.
    await run(sql`UPDATE services SET status = 'approved' WHERE name = 'Ательє 1'`);
    await run(sql`UPDATE services SET country_code = 'DE' WHERE name IN ('Ательє 5', 'Ательє 6')`);
    page = await search({ q: 'ательє', country: 'DE' });
    expect(page.total).toBe(2);
    expect(page.items.map((i) => i.name).sort()).toEqual(['Ательє 5', 'Ательє 6']);
    expect(await miscountedWords(t.db)).toEqual([]);
  });

  it('reads the candidates of a word in few services through the index, same results', async () => {
    // 20,000 other services (written in bulk mode: no documents, no counts), then statistics:
    // 1,003 matches are 5 % of the services, under INDEX_SHARE.
    await run(sql`TRUNCATE services CASCADE`);
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('poruch.search_bulk', 'on', true)`);
      await tx.execute(sql`INSERT INTO services (name, country_code, status)
        SELECT 'Інше ' || i, 'PL', 'approved' FROM generate_series(1, 20000) AS i`);
    });
    await run(sql`INSERT INTO services (name, country_code, status, description_ua, created_at)
      SELECT 'Майстерня ' || i, 'PL', 'approved', 'Ательє поруч.', now() - make_interval(mins => i)
        FROM generate_series(1, ${TOTAL_CAP + 1}) AS i`);
    await run(sql`INSERT INTO services (name, country_code, status, created_at, lat, lng) VALUES
      ('Ательє «Голка»', 'PL', 'approved', now() - interval '30 days', 52.2297, 21.0122),
      ('Ательє Нитка', 'PL', 'approved', now() - interval '31 days', 50.0647, 19.945)`);
    await run(sql`ANALYZE services`);
    const execute = vi.spyOn(t.db, 'execute');
    try {
      const page = await search({ q: 'ательє' });
      expect(page).toMatchObject({ total: TOTAL_CAP, totalIsEstimate: true });
      expect(page.items.slice(0, 2).map((i) => i.name)).toEqual(['Ательє «Голка»', 'Ательє Нитка']);
      expect(page.items).toHaveLength(20);
      expect(page.items.every((i) => /Ательє/.test(`${i.name} ${i.descriptionUa}`))).toBe(true);
      // Near a point (no radius: still over all services), each with its distance.
      const near = await search({ q: 'ательє', near: '52.2297,21.0122' });
      expect(near.items.slice(0, 2).map((i) => [i.name, Math.round(i.distanceKm ?? -1)])).toEqual([
        ['Ательє «Голка»', 0],
        ['Ательє Нитка', 252],
      ]);
      const dialect = (t.db as unknown as { dialect: PgDialect }).dialect;
      const statements = execute.mock.calls.map(([q]) => dialect.sqlToQuery(q as SQL).sql);
      expect(statements.filter((q) => q.includes('poruch_first_service_matches('))).toHaveLength(2);
    } finally {
      execute.mockRestore();
    }
    // The function's planner setting ended with it.
    const res = await run(sql`SELECT current_setting('enable_seqscan') AS v`);
    expect((res as unknown as { rows: { v: string }[] }).rows[0]!.v).toBe('on');
  });

  it('reads the matches of a rare prefix, or of words one of which is rare, through the index', async () => {
    // The 22,003 services of the test before: a prefix typed, a few matches, counted exactly.
    const bound = async (q: string) =>
      (await lookupWords(t.db, queryTokens(q), queryTokens(q))).atMost.get(queryTokens(q)[0]!);
    expect(await bound('ательє')).toBe(TOTAL_CAP + 3);
    expect(await bound('голка')).toBe(1);
    expect(await bound('го')).toBeUndefined(); // too short: words of 2 letters are not counted
    const execute = vi.spyOn(t.db, 'execute');
    try {
      const cases: [string, string[]][] = [
        ['голк', ['Ательє «Голка»']],
        ['нит', ['Ательє Нитка']],
        ['ательє нит', ['Ательє Нитка']],
        ['майстерня 100', ['Майстерня 100', 'Майстерня 1000', 'Майстерня 1001']],
      ];
      for (const [q, names] of cases) {
        const page = await search({ q });
        expect(page.items.map((i) => i.name).sort(), q).toEqual(names);
        expect(page.total, q).toBe(names.length);
        expect(page.totalIsEstimate, q).toBeUndefined();
      }
      const dialect = (t.db as unknown as { dialect: PgDialect }).dialect;
      const statements = execute.mock.calls.map(([q]) => dialect.sqlToQuery(q as SQL).sql);
      expect(statements.filter((q) => q.includes('poruch_first_service_matches('))).toHaveLength(
        cases.length,
      );
    } finally {
      execute.mockRestore();
    }
    // With a filter, no bound: the filters are applied in the search's own scan.
    const page = await search({ q: 'голк', country: 'PL' });
    expect(page.items.map((i) => i.name)).toEqual(['Ательє «Голка»']);
  });
});
