import {
  servicePageSchema,
  serviceSearchQuerySchema,
  vacancySearchQuerySchema,
  type ServiceSearchQuery,
  type VacancySearchQuery,
} from '@poruch/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../db/index.js';
import { freshDatabase } from '../../__tests__/helpers/server.js';
import {
  searchCacheListening,
  searchServices,
  searchServicesJson,
  searchVacancies,
  stopSearchCache,
} from '../index.js';
import { insertCatalogue } from './catalogue.js';
import { otherInstance } from './testDatabase.js';

/**
 * The search result cache (src/search/cache.ts): a hit costs no query, and any write to
 * services, vacancies or category terms, whoever makes it, retires every cached page.
 */
let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  await insertCatalogue(database.db);
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const parse = (query: Record<string, string | number>) =>
  serviceSearchQuerySchema.parse(query) as ServiceSearchQuery;
const names = (page: { items: { name: string }[] }) => page.items.map((i) => i.name);

/** `db` with every query it starts counted (the cache sees the same database client). */
function counting(db: Db): { db: Db; queries: () => number } {
  let n = 0;
  const counted = new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (['execute', 'select', 'transaction'].includes(String(property))) n++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: counted, queries: () => n };
}

/** Waits until `check` holds (another instance's notification arrives asynchronously). */
const until = (check: () => Promise<boolean>) =>
  expect.poll(check, { timeout: 5000, interval: 20 }).toBe(true);

describe('search cache', () => {
  it('listens for writes, and answers a repeated query without a database query', async () => {
    const { db, queries } = counting(database.db);
    const first = await searchServices(db, parse({ q: 'перукарня' }));
    expect(first.items.length).toBeGreaterThan(0);
    if (database.kind === 'postgres') {
      // The dedicated listening connection connects in the background.
      await until(() => searchCacheListening(database.db));
      await searchServices(db, parse({ q: 'перукарня' }));
    }
    expect(await searchCacheListening(database.db)).toBe(true);
    const before = queries();
    expect(before).toBeGreaterThan(0);
    const again = await searchServices(db, parse({ q: 'перукарня' }));
    expect(again).toEqual(first);
    expect(queries()).toBe(before);
    // The JSON of the route: the same bytes and ETag on a hit, and no query.
    const json = await searchServicesJson(db, parse({ q: 'перукарня' }));
    expect(servicePageSchema.parse(JSON.parse(json.body.toString()))).toEqual(first);
    expect(json.etag).toMatch(/^"[\w-]{27}"$/);
    expect(await searchServicesJson(db, parse({ q: 'перукарня' }))).toBe(json);
    expect(queries()).toBe(before);
  });

  it('sees a write of this process at once: insert, update, delete, vacancies, transactions', async () => {
    const q = parse({ q: 'голка' });
    expect((await searchServices(database.db, q)).total).toBe(0);
    await database.db.execute(sql`
      INSERT INTO services (name, country_code, status, description_ua)
      VALUES ('Швейна майстерня «Голка»', 'FR', 'approved', 'Ремонт одягу.')`);
    expect(names(await searchServices(database.db, q))).toEqual(['Швейна майстерня «Голка»']);

    await database.db.execute(sql`
      UPDATE services SET name = 'Швейна майстерня «Наперсток»' WHERE name = 'Швейна майстерня «Голка»'`);
    const renamed = await searchServices(database.db, parse({ q: 'швейна' }));
    expect(names(renamed)).toContain('Швейна майстерня «Наперсток»');
    expect(names(renamed)).not.toContain('Швейна майстерня «Голка»');
    expect((await searchServices(database.db, q)).total).toBe(0);

    // Inside a transaction: seen once it commits.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE services SET status = 'declined'
        WHERE name = 'Швейна майстерня «Наперсток»'`);
    });
    expect(names(await searchServices(database.db, parse({ q: 'швейна' })))).not.toContain(
      'Швейна майстерня «Наперсток»',
    );

    // A vacancy: its page changes, and so do the services' (have_vacancy is theirs).
    const vq = vacancySearchQuerySchema.parse({ q: 'закрійник' }) as VacancySearchQuery;
    expect((await searchVacancies(database.db, vq)).total).toBe(0);
    await database.db.execute(sql`
      INSERT INTO vacancies (service_id, name, experience)
      SELECT id, 'Закрійник', 'any' FROM services WHERE status = 'approved' LIMIT 1`);
    expect((await searchVacancies(database.db, vq)).total).toBe(1);
    await database.db.execute(sql`DELETE FROM vacancies WHERE name = 'Закрійник'`);
    expect((await searchVacancies(database.db, vq)).total).toBe(0);
  });

  it('keeps no page computed while a write committed', async () => {
    const q = parse({ q: 'стібок' });
    expect((await searchServices(database.db, q)).total).toBe(0);
    // The write commits while the search runs (PGlite interleaves their statements; on
    // PostgreSQL they run on two connections).
    const [page] = await Promise.all([
      searchServices(database.db, q),
      database.db.execute(sql`
        INSERT INTO services (name, country_code, status) VALUES ('Майстерня «Стібок»', 'FR', 'approved')`),
    ]);
    expect(page.total).toBeLessThanOrEqual(1);
    expect(names(await searchServices(database.db, q))).toEqual(['Майстерня «Стібок»']);
  });

  it('starts again after it was stopped, and still sees every write', async () => {
    const q = parse({ q: 'кравець' });
    expect((await searchServices(database.db, q)).total).toBe(0);
    await stopSearchCache(database.db);
    await database.db.execute(sql`
      INSERT INTO services (name, country_code, status) VALUES ('Кравець Петро', 'FR', 'approved')`);
    expect((await searchServices(database.db, q)).total).toBe(1);
    await until(() => searchCacheListening(database.db));
    await database.db.execute(
      sql`UPDATE services SET status = 'declined' WHERE name = 'Кравець Петро'`,
    );
    expect((await searchServices(database.db, q)).total).toBe(0);
  });
});

describe.runIf(process.env.PORUCH_TEST_DB === 'postgres')('search cache, two instances', () => {
  let other: Database;
  beforeAll(async () => {
    other = await otherInstance(database.db);
  });
  afterAll(() => other?.close());

  it("retires this instance's pages when another instance writes", async () => {
    const q = parse({ q: 'палітурня' });
    await until(() => searchCacheListening(database.db));
    expect((await searchServices(database.db, q)).total).toBe(0);
    await other.db.execute(sql`
      INSERT INTO services (name, country_code, status) VALUES ('Палітурня «Корінець»', 'FR', 'approved')`);
    await until(async () => (await searchServices(database.db, q)).total === 1);
  });

  it('falls back to the generation when its listener is lost, and listens again', async () => {
    const q = parse({ q: 'гравер' });
    await until(() => searchCacheListening(database.db));
    expect((await searchServices(database.db, q)).total).toBe(0);
    // Kill the dedicated listening connection (the one that is idle in LISTEN and not ours).
    await other.db.execute(sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = 'LISTEN poruch_search'`);
    await until(async () => !(await searchCacheListening(database.db)));
    await other.db.execute(sql`
      INSERT INTO services (name, country_code, status) VALUES ('Гравер Іван', 'FR', 'approved')`);
    expect((await searchServices(database.db, q)).total).toBe(1);
    await until(() => searchCacheListening(database.db));
  });
});
