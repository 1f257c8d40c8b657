import { serviceSearchQuerySchema, type ServiceSearchQuery } from '@poruch/core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TOTAL_CAP, searchServices } from '../index.js';
import { searchTestDatabase } from './testDatabase.js';

/**
 * More matches than the ranking reads (TOTAL_CAP): the total is capped and flagged, and the
 * services with the word in their name still come first, though they were written last (the
 * "any match" tier reads rows in physical order, so only the name tiers can find them).
 */
const MANY = TOTAL_CAP + 150;
const t = searchTestDatabase({
  cacheOff: true,
  setup: async (db) => {
    await db.execute(sql`
      INSERT INTO services (name, country_code, status, description_ua, created_at)
      SELECT 'Майстерня ' || i, 'PL', 'approved', 'Фотостудія поруч, ремонт речей.',
             now() - make_interval(mins => i)
        FROM generate_series(1, ${MANY}) AS i`);
    await db.execute(sql`
      INSERT INTO services (name, country_code, status, description_ua, created_at) VALUES
        ('Фотостудія «Кадр»', 'PL', 'approved', 'Портрети.', now() - interval '30 days'),
        ('Фотостудія Світло', 'PL', 'approved', 'Фотосесії.', now() - interval '31 days'),
        ('Фотостудія «Кадр» (закрита)', 'PL', 'declined', 'Портрети.', now())`);
  },
});

const search = (query: Record<string, string | number>) =>
  searchServices(t.db, serviceSearchQuerySchema.parse(query) as ServiceSearchQuery);

describe('a text query with more matches than the ranking reads', () => {
  it('caps the total, flags it, and still ranks the name matches first', async () => {
    for (const q of ['фотостудія', 'fotostudiia', 'фотостуд', 'фотостудя']) {
      const page = await search({ q });
      expect(page.total, q).toBe(TOTAL_CAP);
      expect(page.totalIsEstimate, q).toBe(true);
      expect(
        page.items.slice(0, 2).map((i) => i.name),
        q,
      ).toEqual(['Фотостудія «Кадр»', 'Фотостудія Світло']);
      expect(page.items).toHaveLength(20);
    }
  });

  it('counts exactly when the matches fit, with a filter narrowing them', async () => {
    const page = await search({ q: 'фотостудія кадр' });
    expect(page.total).toBe(1);
    expect(page.totalIsEstimate).toBeUndefined();
    expect(page.items.map((i) => i.name)).toEqual(['Фотостудія «Кадр»']);
  });

  it('pages past the end of a capped query and of a listing without q', async () => {
    // Deep pages read as many matches as they skip, so the count is exact there.
    const beyond = await search({ q: 'фотостудія', page: 60 });
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(MANY + 2);
    expect(beyond.totalIsEstimate).toBeUndefined();
    const listing = await search({ page: 1000 });
    expect(listing.items).toEqual([]);
    expect(listing.total).toBe(MANY + 2);
    const last = await search({ page: Math.ceil((MANY + 2) / 20) });
    expect(last.items).toHaveLength((MANY + 2) % 20 || 20);
  });
});
