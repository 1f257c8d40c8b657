import {
  servicePageSchema,
  serviceSearchQuerySchema,
  serviceSummarySchema,
  type ServiceSearchQuery,
} from '@poruch/core';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { services, vacancies } from '../../db/schema.js';
import { searchServices, searchVacancies } from '../index.js';
import { APPROVED, CATALOGUE, insertCatalogue } from './catalogue.js';
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
  searchServices(t.db, serviceSearchQuerySchema.parse(query) as ServiceSearchQuery);
const keys = (page: { items: { id: string }[] }) => page.items.map((i) => keyOf.get(i.id)!);
const fixture = (key: string) => CATALOGUE.find((s) => s.key === key)!;

describe('searchServices: shape, approved only, pagination', () => {
  it('answers ServicePage items in the summary shape, without owner data', async () => {
    const page = await search({ pageSize: 100 });
    expect(servicePageSchema.parse(page)).toBeTruthy();
    for (const item of page.items) {
      expect(Object.keys(item).sort()).toEqual(
        Object.keys(serviceSummarySchema.shape)
          .filter((k) => k !== 'distanceKm')
          .sort(),
      );
    }
    const perukarnia = page.items.find((i) => i.id === ids.get('perukarnia'))!;
    expect(perukarnia).toMatchObject({
      name: 'Перукарня «Калина»',
      countryCode: 'PL',
      category: 'beauty_and_health',
      lat: 52.2297,
      lng: 21.0122,
      isOnline: false,
      createdAt: '2025-06-01T12:00:00.000Z',
    });
  });

  it('lists approved services only, with the total', async () => {
    const page = await search({ pageSize: 100 });
    expect(page.total).toBe(APPROVED.length);
    expect(new Set(keys(page))).toEqual(new Set(APPROVED.map((s) => s.key)));
    expect((await search({ q: 'Тінь' })).total).toBe(0);
    expect((await search({ q: 'Declined Bakery' })).total).toBe(0);
  });

  it('pages through every result once, with the same total on each page', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 8; page++) {
      const res = await search({ page, pageSize: 5 });
      expect(res).toMatchObject({ page, pageSize: 5, total: APPROVED.length });
      seen.push(...keys(res));
    }
    expect(seen).toHaveLength(APPROVED.length);
    expect(new Set(seen).size).toBe(APPROVED.length);
  });

  it('pages a text query too; past the end it answers no items and the total', async () => {
    const first = await search({ q: 'ukrainian', pageSize: 3 });
    const second = await search({ q: 'ukrainian', pageSize: 3, page: 2 });
    expect(first.total).toBeGreaterThan(3);
    expect(second.total).toBe(first.total);
    expect(keys(second).some((k) => keys(first).includes(k))).toBe(false);
    const beyond = await search({ q: 'ukrainian', pageSize: 3, page: 100 });
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(first.total);
  });

  it('finds nothing for a word nobody uses, and treats punctuation-only q as no query', async () => {
    expect((await search({ q: 'qwxzvbnm' })).total).toBe(0);
    expect((await search({ q: '«»!?' })).total).toBe(APPROVED.length);
  });
});

describe('searchServices: filters', () => {
  it('country', async () => {
    const page = await search({ country: 'PL', pageSize: 100 });
    const expected = APPROVED.filter((s) => s.countryCode === 'PL').map((s) => s.key);
    expect(new Set(keys(page))).toEqual(new Set(expected));
    expect(page.total).toBe(expected.length);
  });

  it('category: a key, all, empty', async () => {
    const food = await search({ category: 'food', pageSize: 100 });
    expect(new Set(keys(food))).toEqual(
      new Set(APPROVED.filter((s) => s.category === 'food').map((s) => s.key)),
    );
    expect((await search({ category: 'all' })).total).toBe(APPROVED.length);
    expect(keys(await search({ category: 'empty' }))).toEqual(['handyman']);
  });

  it('online and hasVacancy', async () => {
    expect(new Set(keys(await search({ online: 'true' })))).toEqual(
      new Set(['psychologist', 'yoga']),
    );
    expect((await search({ online: 'false' })).total).toBe(APPROVED.length);
    expect(new Set(keys(await search({ hasVacancy: '1' })))).toEqual(
      new Set(APPROVED.filter((s) => s.haveVacancy).map((s) => s.key)),
    );
  });

  it('bbox, also across the antimeridian', async () => {
    // Poland.
    const pl = await search({ bbox: '14.1,49.0,24.2,54.9', pageSize: 100 });
    expect(new Set(keys(pl))).toEqual(
      new Set(
        APPROVED.filter(
          (s) => s.lat !== null && s.lat >= 49 && s.lat <= 54.9 && s.lng! >= 14.1 && s.lng! <= 24.2,
        ).map((s) => s.key),
      ),
    );
    expect(keys(pl)).toContain('perukarnia');
    expect(keys(pl)).not.toContain('barber');
    // From 170°E across 180° to 0°: Europe west of Greenwich and the Americas.
    const wrapped = await search({ bbox: '170,30,0,60', pageSize: 100 });
    expect(keys(wrapped)).toEqual(expect.arrayContaining(['shop', 'atelier', 'immigration']));
    expect(keys(wrapped)).not.toContain('perukarnia');
  });

  it('near + radiusKm, with distanceKm', async () => {
    // 300 km around Warsaw: Warsaw, Łódź, Kraków… (the expectation is computed here).
    const page = await search({ near: '52.2297,21.0122', radiusKm: 300, pageSize: 100 });
    const within = APPROVED.filter(
      (s) => s.lat !== null && haversine(52.2297, 21.0122, s.lat, s.lng!) <= 300,
    ).map((s) => s.key);
    expect(new Set(keys(page))).toEqual(new Set(within));
    expect(within).toEqual(expect.arrayContaining(['perukarnia', 'translator']));
    for (const item of page.items) {
      const s = fixture(keyOf.get(item.id)!);
      expect(item.distanceKm).toBeCloseTo(haversine(52.2297, 21.0122, s.lat!, s.lng!), 3);
    }
    expect(page.items.find((i) => i.id === ids.get('perukarnia'))!.distanceKm).toBeCloseTo(0, 5);
  });

  it('filters combine with each other and with q', async () => {
    const page = await search({ q: 'ресторан', country: 'PL', category: 'food' });
    expect(keys(page)).toEqual(['restaurant_kharkiv']);
    expect((await search({ q: 'школа', category: 'sports' })).items.map((i) => i.name)).toEqual([
      'Футбольна школа «Динамо»',
    ]);
    expect((await search({ q: 'вареники', country: 'DE' })).total).toBe(0);
  });
});

describe('searchServices: sorting', () => {
  it('newest: createdAt descending (also relevance without q)', async () => {
    for (const sort of ['newest', 'relevance'] as const) {
      const page = await search({ sort, pageSize: 100 });
      expect(keys(page)).toEqual(APPROVED.map((s) => s.key));
    }
  });

  it('newest with q orders matches by date, not rank', async () => {
    const page = await search({ q: 'школа', sort: 'newest' });
    const order = APPROVED.map((s) => s.key).filter((k) => keys(page).includes(k));
    expect(keys(page)).toEqual(order);
  });

  it('distance: nearest first, services without a position last; needs near', async () => {
    const page = await search({ near: '50.45,30.52', sort: 'distance', pageSize: 100 });
    const d = page.items.map((i) => i.distanceKm);
    const placed = d.filter((x): x is number => x != null);
    expect(placed).toEqual([...placed].sort((a, b) => a - b));
    expect(d.slice(placed.length).every((x) => x === null)).toBe(true);
    const nearest = APPROVED.filter((s) => s.lat !== null).sort(
      (a, b) => haversine(50.45, 30.52, a.lat!, a.lng!) - haversine(50.45, 30.52, b.lat!, b.lng!),
    );
    expect(keys(page).slice(0, 3)).toEqual(nearest.slice(0, 3).map((s) => s.key));
    // Without near it falls back to newest (no q) or relevance (q).
    expect(keys(await search({ sort: 'distance', pageSize: 100 }))).toEqual(
      APPROVED.map((s) => s.key),
    );
    expect(keys(await search({ sort: 'distance', q: 'Харків' }))[0]).toBe('restaurant_kharkiv');
    expect((await search({ sort: 'distance' })).items[0]).not.toHaveProperty('distanceKm');
  });

  it('relevance: a name match beats a description match, a whole word beats a typo', async () => {
    // "kyiv" is in the names of two services and in the original place of one.
    const kyiv = keys(await search({ q: 'kyiv' }));
    expect(kyiv.slice(0, 2).sort()).toEqual(['barber', 'restaurant_kyiv']);
    // "Харків" is the name of one service and the original place of another.
    expect(keys(await search({ q: 'Харків' }))).toEqual(['restaurant_kharkiv', 'barber']);
  });
});

describe('search documents follow every write (triggers)', () => {
  it('an edit re-indexes the service, a new word becomes correctable', async () => {
    await t.db
      .update(services)
      .set({ name: 'Квіткова крамниця «Мальва»', category: 'commerce' })
      .where(eq(services.id, ids.get('handyman')!));
    expect(keys(await search({ q: 'мальва' }))).toEqual(['handyman']);
    expect(keys(await search({ q: 'malva' }))).toEqual(['handyman']);
    expect(keys(await search({ q: 'kvitkova' }))).toEqual(['handyman']);
    expect(keys(await search({ q: 'kvitkowa' }))).toEqual(['handyman']);
    expect(keys(await search({ q: 'kvitkova', category: 'empty' }))).toEqual([]);
    expect((await search({ q: 'майстер' })).total).toBe(0);
  });

  it('a status change shows or hides the service', async () => {
    await t.db
      .update(services)
      .set({ status: 'approved' })
      .where(eq(services.id, ids.get('pending_salon')!));
    expect(keys(await search({ q: 'Тінь' }))).toEqual(['pending_salon']);
    await t.db
      .update(services)
      .set({ status: 'pending' })
      .where(eq(services.id, ids.get('pending_salon')!));
    expect((await search({ q: 'Тінь' })).total).toBe(0);
  });

  it("renaming a service re-indexes its vacancies' service name", async () => {
    await t.db
      .update(services)
      .set({ name: 'Автосервіс «Турбо»' })
      .where(eq(services.id, ids.get('auto')!));
    const hits = await searchVacancies(t.db, {
      q: 'турбо',
      category: 'all',
      openOnly: true,
      page: 1,
      pageSize: 20,
    });
    expect(hits.items.map((v) => v.name)).toEqual(['Автомеханік']);
    expect(hits.items[0]!.service.name).toBe('Автосервіс «Турбо»');
  });

  it('rows written with raw SQL are indexed too', async () => {
    await t.db.execute(sql`
      INSERT INTO services (name, country_code, status, description_ua)
      VALUES ('Швейна майстерня «Голка»', 'FR', 'approved', 'Ремонт одягу.')`);
    const page = await search({ q: 'holka' });
    expect(page.items.map((i) => i.name)).toEqual(['Швейна майстерня «Голка»']);
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(vacancies)
      .where(sql`search_doc = ''::tsvector`);
    expect(row!.n).toBe(0);
  });
});

describe('search cache', () => {
  it('answers a repeated query from the cache until the next write', async () => {
    const first = await search({ q: 'швейна' });
    expect(first.items.map((i) => i.name)).toContain('Швейна майстерня «Голка»');
    expect(await search({ q: 'швейна' })).toEqual(first);
    await t.db.execute(sql`
      UPDATE services SET name = 'Швейна майстерня «Наперсток»' WHERE name = 'Швейна майстерня «Голка»'`);
    const after = await search({ q: 'швейна' });
    expect(after.items.map((i) => i.name)).toContain('Швейна майстерня «Наперсток»');
    expect(after.items.map((i) => i.name)).not.toContain('Швейна майстерня «Голка»');
    // A caller changing a page does not change the cached one.
    after.items.length = 0;
    expect((await search({ q: 'швейна' })).items.length).toBeGreaterThan(0);
  });
});

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const a =
    Math.sin(r(lat2 - lat1) / 2) ** 2 +
    Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}
