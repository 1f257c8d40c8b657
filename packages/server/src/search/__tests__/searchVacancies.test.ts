import { vacancySearchQuerySchema, vacancySchema, type VacancySearchQuery } from '@poruch/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { services } from '../../db/schema.js';
import { searchVacancies } from '../index.js';
import { CATALOGUE, VACANCIES, insertCatalogue } from './catalogue.js';
import { searchTestDatabase } from './testDatabase.js';

let ids: Map<string, string>;
let keyOf: Map<string, string>;
const t = searchTestDatabase({
  setup: async (db) => {
    ids = await insertCatalogue(db);
    keyOf = new Map([...ids].map(([k, id]) => [id, k]));
  },
});

const search = (query: Record<string, string | number> = {}) =>
  searchVacancies(t.db, vacancySearchQuerySchema.parse(query) as VacancySearchQuery);
const keys = (page: { items: { id: string }[] }) => page.items.map((i) => keyOf.get(i.id)!);
/** Open vacancies of approved services, newest first (fixture order). */
const OPEN = VACANCIES.filter((v) => v.isOpen !== false && v.service !== 'pending_salon');

describe('searchVacancies', () => {
  it('lists open vacancies of approved services, newest first, in the vacancy shape', async () => {
    const page = await search();
    expect(keys(page)).toEqual(OPEN.map((v) => v.key));
    expect(page).toMatchObject({ total: OPEN.length, page: 1, pageSize: 20 });
    const cook = page.items.find((v) => v.id === ids.get('cook'))!;
    expect(vacancySchema.parse(cook)).toBeTruthy();
    expect(cook).toMatchObject({
      name: 'Кухар української кухні',
      experience: 'one_two',
      isOpen: true,
      serviceId: ids.get('restaurant_kharkiv'),
      createdAt: '2025-06-01T12:00:00.000Z',
      service: {
        id: ids.get('restaurant_kharkiv'),
        name: 'Ресторан «Харків»',
        countryCode: 'PL',
        category: 'food',
      },
    });
    expect(Object.keys(cook.service).sort()).toEqual(['category', 'countryCode', 'id', 'name']);
  });

  it('openOnly=false adds closed vacancies; a pending service never shows', async () => {
    const page = await search({ openOnly: 'false' });
    expect(keys(page)).toContain('dishwasher_closed');
    expect(keys(page)).not.toContain('pending_stylist');
    expect(page.total).toBe(OPEN.length + 1);
    expect((await search({ q: 'стиліст', openOnly: 'false' })).total).toBe(0);
  });

  it('q: vacancy name first, then requirements and description, also in Latin and with typos', async () => {
    expect(keys(await search({ q: 'кухар' }))).toEqual(['cook']);
    expect(keys(await search({ q: 'kukhar' }))).toEqual(['cook']);
    expect(keys(await search({ q: 'автомеханик' }))).toEqual(['mechanic']);
    expect(keys(await search({ q: 'diagnostics' }))).toEqual(['mechanic']);
    expect(keys(await search({ q: 'двигунів' }))).toEqual(['mechanic']);
    expect(keys(await search({ q: 'cleaner' }))).toEqual(['cleaner']);
    expect(keys(await search({ q: 'claener' }))).toEqual(['cleaner']);
    expect(keys(await search({ q: 'рекрутор' }))).toEqual(['recruiter']);
    // "вареників" is in the cook's requirements, "борщ" too.
    expect(keys(await search({ q: 'борщ' }))).toEqual(['cook']);
  });

  it("q matches the service's name, below matches in the vacancy itself", async () => {
    expect(new Set(keys(await search({ q: 'Харків' })))).toEqual(new Set(['cook', 'waiter']));
    expect(keys(await search({ q: 'Cleaning' }))).toEqual(['cleaner']);
    // "мова" is in the waiter's requirements only.
    expect(keys(await search({ q: 'польська мова' }))).toEqual(['waiter']);
  });

  it('country and category of the service', async () => {
    expect(new Set(keys(await search({ country: 'PL' })))).toEqual(
      new Set(['cook', 'waiter', 'recruiter']),
    );
    expect(keys(await search({ category: 'auto' }))).toEqual(['mechanic']);
    expect((await search({ category: 'empty' })).total).toBe(0);
    expect(keys(await search({ country: 'PL', category: 'work' }))).toEqual(['recruiter']);
  });

  it('experience', async () => {
    expect(keys(await search({ experience: 'six_plus' }))).toEqual(['recruiter']);
    expect(new Set(keys(await search({ experience: 'any' })))).toEqual(
      new Set(['waiter', 'cleaner']),
    );
    expect(keys(await search({ experience: 'any', openOnly: 'false', country: 'PL' }))).toEqual([
      'waiter',
      'dishwasher_closed',
    ]);
  });

  it('serviceId', async () => {
    expect(keys(await search({ serviceId: ids.get('restaurant_kharkiv')! }))).toEqual([
      'cook',
      'waiter',
    ]);
    expect((await search({ serviceId: ids.get('pending_salon')! })).total).toBe(0);
    expect((await search({ serviceId: '00000000-0000-4000-8000-000000000000' })).total).toBe(0);
  });

  it('paginates with the total', async () => {
    const first = await search({ pageSize: 2 });
    const second = await search({ pageSize: 2, page: 2 });
    const third = await search({ pageSize: 2, page: 3 });
    expect([...keys(first), ...keys(second), ...keys(third)]).toEqual(OPEN.map((v) => v.key));
    expect(first.total).toBe(OPEN.length);
    expect(third.total).toBe(OPEN.length);
    const beyond = await search({ pageSize: 2, page: 9, q: 'досвід' });
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(2);
  });

  it('hides vacancies when their service is declined', async () => {
    await t.db
      .update(services)
      .set({ status: 'declined' })
      .where(eq(services.id, ids.get('agency')!));
    expect(keys(await search({ country: 'PL' }))).toEqual(['cook', 'waiter']);
    expect(CATALOGUE.find((s) => s.key === 'agency')!.countryCode).toBe('PL');
  });
});
