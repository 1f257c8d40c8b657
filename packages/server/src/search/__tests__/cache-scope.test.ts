import {
  serviceProfileSchema,
  serviceSearchQuerySchema,
  vacancySearchQuerySchema,
  type ServicePage,
  type ServiceSearchQuery,
  type VacancySearchQuery,
} from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../db/index.js';
import { findPublicProfile } from '../../repositories/catalogue.js';
import { cacheQuiet } from '../../__tests__/helpers/cache.js';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { searchCacheListening, searchCacheView, setSearchCache, type JsonBody } from '../cache.js';
import { searchServices, searchServicesJson, searchVacanciesJson } from '../index.js';
import { insertCatalogue } from './catalogue.js';

/**
 * Writes retire only what they change (src/search/cache.ts, migration 0018): a report retires
 * nothing, a used mark updates its count in the kept pages without retiring them, and a change of
 * a service retires the pages of its country (old and new), the pages without a country filter
 * and that service's profile, nothing else. A kept page is seen through a silent change (made
 * with triggers off, so no notification): it shows only when the page is computed again. On
 * PostgreSQL the writes come from another instance (its own pool), whose notifications arrive
 * asynchronously; on PGlite from the server's database.
 */
let server: TestServer;
let ids: Map<string, string>;
let other: Database | undefined;

beforeAll(async () => {
  server = await startTestServer();
  ids = await insertCatalogue(server.database.db);
  await vi.waitFor(async () => expect(await searchCacheListening(server.app.db)).toBe(true), {
    timeout: 10_000,
  });
  if (server.database.kind === 'postgres') {
    const [row] = (
      (await server.database.db.execute(sql`SELECT current_database() AS name`)) as unknown as {
        rows: { name: string }[];
      }
    ).rows;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    other = await openDatabase({ url: url.toString(), dataDir: '' });
  }
});
afterAll(async () => {
  await other?.close();
  await server?.close();
});

const id = (key: string) => ids.get(key)!;
const db = () => server.app.db;
/** Another instance's write on PostgreSQL; on PGlite the one database's. */
const write = (statement: SQL) => (other ?? server.database).db.execute(statement);
/** A change no notification tells of (triggers off). */
const silently = (statement: SQL) =>
  server.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(statement);
  });
const rename = (key: string, name: string) =>
  silently(sql`UPDATE services SET name = ${name} WHERE id = ${id(key)}`);

const services = (query: Record<string, string> = {}) =>
  searchServicesJson(db(), serviceSearchQuerySchema.parse(query) as ServiceSearchQuery);
const vacancies = (query: Record<string, string> = {}) =>
  searchVacanciesJson(db(), vacancySearchQuerySchema.parse(query) as VacancySearchQuery);
const page = (json: JsonBody) => JSON.parse(json.body.toString()) as ServicePage;
const item = (json: JsonBody, key: string) => page(json).items.find((i) => i.id === id(key));
/** What the database holds now for that query (the search computed afresh, not from the cache). */
const fresh = async (query: Record<string, string>) => {
  setSearchCache(false);
  try {
    return await searchServices(db(), serviceSearchQuerySchema.parse(query) as ServiceSearchQuery);
  } finally {
    setSearchCache(true);
  }
};

const profile = async (key: string) => {
  const res = await fetch(`${server.url}/api/v1/services/${id(key)}`);
  return res.text();
};
const freshProfile = async (key: string) =>
  JSON.stringify(serviceProfileSchema.parse(await findPublicProfile(server.database.db, id(key))));

const until = (check: () => Promise<boolean>) =>
  expect.poll(check, { timeout: 5000, interval: 20 }).toBe(true);

describe('writes retire only what they change', () => {
  it('a report retires nothing; a used mark keeps every page and shows its new count on them', async () => {
    await cacheQuiet(server);
    const pl = await services({ country: 'PL' });
    const all = await services();
    const text = await services({ q: 'перукарня' });
    const kept = await profile('translator');
    expect(item(pl, 'perukarnia')).toMatchObject({ usedCount: 0 });
    // Seen only by a page computed again.
    await rename('translator', 'Бюро перекладів «Слово» (тихо)');
    await silently(
      sql`UPDATE services SET website = 'https://silent.example' WHERE id = ${id('translator')}`,
    );

    const visitor = new TestClient(server.url);
    const report = await visitor.post('/api/v1/reports', {
      serviceId: id('perukarnia'),
      reason: 'no_contact',
      description: 'Телефон не відповідає',
    });
    expect(report.status).toBe(201);
    expect(await services({ country: 'PL' })).toBe(pl);
    expect(await services()).toBe(all);
    expect(await services({ q: 'перукарня' })).toBe(text);
    expect(await profile('translator')).toBe(kept);

    const mark = await visitor.post(`/api/v1/services/${id('perukarnia')}/used`, {
      browserId: 'cache-scope-browser-1',
    });
    expect(mark.body).toEqual({ usedCount: 1, counted: true });
    for (const [json, query] of [
      [pl, { country: 'PL' }],
      [all, {}],
      [text, { q: 'перукарня' }],
    ] as const) {
      const after = await services(query);
      // The same page with the one number changed (and so a new ETag), not computed again.
      expect(after).not.toBe(json);
      expect(after.etag).not.toBe(json.etag);
      expect(item(after, 'perukarnia')).toMatchObject({ usedCount: 1 });
      expect(page(after)).toEqual({
        ...page(json),
        items: page(json).items.map((i) =>
          i.id === id('perukarnia') ? { ...i, usedCount: 1 } : i,
        ),
      });
      expect(await services(query)).toBe(after);
    }
    // The count equals the database's.
    expect(
      (await fresh({ country: 'PL' })).items.find((i) => i.id === id('perukarnia')),
    ).toMatchObject({
      usedCount: 1,
    });
    // Another service's profile is kept; the marked one's shows what the database holds.
    expect(await profile('translator')).toBe(kept);
    expect(await profile('perukarnia')).toBe(await freshProfile('perukarnia'));
    expect(JSON.parse(await profile('perukarnia'))).toMatchObject({ usedCount: 1 });
  });

  it("a used mark by another instance updates this one's kept pages", async () => {
    await cacheQuiet(server);
    const pl = await services({ country: 'PL' });
    const before = item(pl, 'perukarnia')!.usedCount;
    await rename('transport', 'Перевезення «Дорога» (тихо)');
    await write(
      sql`UPDATE services SET used_count = used_count + 1 WHERE id = ${id('perukarnia')}`,
    );
    await until(
      async () => item(await services({ country: 'PL' }), 'perukarnia')?.usedCount === before + 1,
    );
    // Kept, with the one count changed: the silent rename does not show.
    expect(page(await services({ country: 'PL' }))).toEqual({
      ...page(pl),
      items: page(pl).items.map((i) =>
        i.id === id('perukarnia') ? { ...i, usedCount: before + 1 } : i,
      ),
    });
  });

  it('an edit in DE retires the DE pages, the pages without a country and its profile; PL pages stay', async () => {
    await cacheQuiet(server);
    const pl = await services({ country: 'PL' });
    const plText = await services({ q: 'перукарня', country: 'PL' });
    const at = await services({ country: 'AT' });
    const de = await services({ country: 'DE' });
    const all = await services();
    const plVacancies = await vacancies({ country: 'PL' });
    const keptProfile = await profile('perukarnia');
    const lawyerProfile = await profile('lawyer');
    await rename('perukarnia', 'Перукарня «Калина» (тихо)');
    // Not a searched field: the edit below adds no new word (which would retire text pages).
    await silently(sql`UPDATE services SET phone = '+49 30 1234567' WHERE id = ${id('lawyer')}`);

    await write(
      sql`UPDATE services SET description_ua = 'Юридична допомога.' WHERE id = ${id('lawyer')}`,
    );
    await until(async () => (await services({ country: 'DE' })) !== de);
    // The DE page and the page without a country are what the database holds now.
    expect(page(await services({ country: 'DE' }))).toEqual(await fresh({ country: 'DE' }));
    expect(page(await services())).toEqual(await fresh({}));
    expect(item(await services({ country: 'DE' }), 'lawyer')).toMatchObject({
      phone: '+49 30 1234567',
      descriptionUa: 'Юридична допомога.',
    });
    expect(await services()).not.toBe(all);
    await until(async () => (await profile('lawyer')) !== lawyerProfile);
    expect(await profile('lawyer')).toBe(await freshProfile('lawyer'));
    // The other countries' pages, vacancies and profiles are kept.
    expect(await services({ country: 'PL' })).toBe(pl);
    expect(await services({ q: 'перукарня', country: 'PL' })).toBe(plText);
    expect(await services({ country: 'AT' })).toBe(at);
    expect(await vacancies({ country: 'PL' })).toBe(plVacancies);
    expect(await profile('perukarnia')).toBe(keptProfile);
  });

  it('a service moved from DE to PL retires the pages of both countries; a deletion those of its country', async () => {
    await cacheQuiet(server);
    const pl = await services({ country: 'PL' });
    const de = await services({ country: 'DE' });
    const at = await services({ country: 'AT' });
    await write(sql`UPDATE services SET country_code = 'PL' WHERE id = ${id('vet')}`);
    await until(async () => (await services({ country: 'PL' })) !== pl);
    await until(async () => (await services({ country: 'DE' })) !== de);
    expect(page(await services({ country: 'PL' }))).toEqual(await fresh({ country: 'PL' }));
    expect(page(await services({ country: 'DE' }))).toEqual(await fresh({ country: 'DE' }));
    expect(item(await services({ country: 'PL' }), 'vet')).toBeDefined();
    expect(item(await services({ country: 'DE' }), 'vet')).toBeUndefined();
    expect(await services({ country: 'AT' })).toBe(at);

    await cacheQuiet(server);
    const de2 = await services({ country: 'DE' });
    await write(sql`DELETE FROM services WHERE id = ${id('vet')}`);
    await until(async () => item(await services({ country: 'PL' }), 'vet') === undefined);
    expect(page(await services({ country: 'PL' }))).toEqual(await fresh({ country: 'PL' }));
    expect(await services({ country: 'DE' })).toBe(de2);
    expect(await services({ country: 'AT' })).toBe(at);
  });

  it('a write to a service the public cannot see (and to its vacancies) retires nothing', async () => {
    await cacheQuiet(server);
    const pl = await services({ country: 'PL' });
    const all = await services();
    const plVacancies = await vacancies({ country: 'PL' });
    // Through the server's own database: its notification arrives before the write returns.
    await server.database.db.execute(
      sql`UPDATE services SET description_ua = 'Ще перевіряємо.' WHERE id = ${id('pending_salon')}`,
    );
    await server.database.db.execute(sql`
      INSERT INTO vacancies (service_id, name, experience)
      VALUES (${id('pending_salon')}, 'Перукар', 'any')`);
    expect(await services({ country: 'PL' })).toBe(pl);
    expect(await services()).toBe(all);
    expect(await vacancies({ country: 'PL' })).toBe(plVacancies);
    // Its approval shows it.
    await server.database.db.execute(
      sql`UPDATE services SET status = 'approved' WHERE id = ${id('pending_salon')}`,
    );
    expect(item(await services({ country: 'PL' }), 'pending_salon')).toBeDefined();
    expect(page(await vacancies({ country: 'PL' })).items.map((i) => i.name)).toContain('Перукар');
  });

  it("a used mark's count update skips the triggers that work on anything but the count", async () => {
    // Which trigger functions one transaction called (migration 0020): a used mark only moves
    // the generation on and notifies its count; any other update of services runs them all.
    const calls = await server.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL track_functions = 'all'`);
      const called = async () =>
        Object.fromEntries(
          (
            (await tx.execute(sql`
              SELECT funcname AS f, calls::int AS n FROM pg_stat_xact_user_functions
              WHERE funcname IN ('poruch_collect_search_words', 'poruch_count_service_words',
                'poruch_notify_search_change', 'poruch_notify_used_counts')`)) as unknown as {
              rows: { f: string; n: number }[];
            }
          ).rows.map((r) => [r.f, r.n]),
        );
      const [mark] = (
        (await tx.execute(
          sql`SELECT * FROM poruch_mark_used(${id('perukarnia')}, 'cache-scope-browser-sql')`,
        )) as unknown as { rows: { n: number; counted: boolean }[] }
      ).rows;
      expect(mark).toMatchObject({ counted: true });
      const afterMark = await called();
      const [flag] = (
        (await tx.execute(sql`SELECT poruch_in_used_mark() AS on`)) as unknown as {
          rows: { on: boolean }[];
        }
      ).rows;
      await tx.execute(sql`UPDATE services SET used_count = 0 WHERE id = ${id('perukarnia')}`);
      return { afterMark, flag: flag!.on, afterUpdate: await called() };
    });
    expect(calls.afterMark).toEqual({ poruch_notify_used_counts: 1 });
    expect(calls.flag).toBe(false);
    expect(calls.afterUpdate).toEqual({
      poruch_notify_used_counts: 1,
      poruch_collect_search_words: 1,
      poruch_count_service_words: 1,
      poruch_notify_search_change: 1,
    });
  });

  it('each write is handled once, whichever connection or instance made it', async () => {
    // PostgreSQL delivers a notification to every listening session: every pooled connection
    // and the listener. Several connections of the pool are open here.
    await Promise.all(
      Array.from({ length: 4 }, () => server.database.db.execute(sql`SELECT pg_sleep(0.05)`)),
    );
    await cacheQuiet(server);
    const seen = async () => (await searchCacheView(db())).seq;
    const own = await seen();
    // One notification per statement (no new words: those would notify too).
    const mark = sql`UPDATE services SET used_count = used_count + 1 WHERE id = ${id('lawyer')}`;
    await server.database.db.execute(mark);
    // This process's own write: handled before it returned, by the connection that made it.
    expect((await seen()) - own).toBe(1);
    const before = await seen();
    await write(mark);
    await until(async () => (await seen()) > before);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await seen()) - before).toBe(1);
  });
});
