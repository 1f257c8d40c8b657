import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_KEYS } from '@poruch/core';
import type { Database } from '../../db/index.js';
import { services, vacancies } from '../../db/schema.js';
import { freshDatabase } from '../../__tests__/helpers/server.js';
import { miscountedWords } from '../../search/__tests__/wordCounts.js';
import { seedSynthetic, type SyntheticProgress } from '../synthetic.js';

describe('seedSynthetic', () => {
  let database: Database;
  let drop: () => Promise<void>;
  const progress: SyntheticProgress[] = [];

  beforeAll(async () => {
    ({ database, drop } = await freshDatabase());
    const result = await seedSynthetic(database.db, {
      services: 1200,
      vacancies: 3600,
      seed: 42,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({ services: 1200, vacancies: 3600 });
    expect(result.countries).toBeGreaterThanOrEqual(30);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('bulk mode writes the same search documents and copied columns as the row triggers', async () => {
    const rows = (q: ReturnType<typeof sql>) =>
      database.db.execute(q).then((r) => (r as unknown as { rows: { n: number }[] }).rows[0]!.n);
    expect(
      await rows(sql`SELECT count(*)::int AS n FROM services
        WHERE search_doc <> poruch_service_doc(name, description_ua, description_other, address,
                address_details ->> 'city', original_place, category)
           OR name_doc <> to_tsvector('simple', poruch_search_key(name))
           OR search_doc = ''::tsvector`),
    ).toBe(0);
    expect(
      await rows(sql`SELECT count(*)::int AS n FROM vacancies v JOIN services s ON s.id = v.service_id
        WHERE v.search_doc <> poruch_vacancy_doc(v.name, v.requirements, v.description, s.name)
           OR v.name_doc <> to_tsvector('simple', poruch_search_key(v.name))
           OR v.service_status IS DISTINCT FROM s.status
           OR v.service_country IS DISTINCT FROM s.country_code
           OR v.service_category IS DISTINCT FROM s.category`),
    ).toBe(0);
    // search_words holds every word of the documents, as the triggers would have collected.
    expect(
      await rows(sql`SELECT count(*)::int AS n FROM (
        SELECT unnest(tsvector_to_array(search_doc)) AS w FROM services
        UNION SELECT unnest(tsvector_to_array(search_doc)) FROM vacancies) d
        WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
          AND NOT EXISTS (SELECT 1 FROM search_words sw WHERE sw.word = d.w)`),
    ).toBe(0);
    // Its document counts are the approved services' (migration 0010).
    expect(await miscountedWords(database.db)).toEqual([]);
    // The GIN indexes dropped for the load are back (four of the search, and the duplicate
    // check's trigram index of migration 0013, which the load keeps).
    expect(
      await rows(sql`SELECT count(*)::int AS n FROM pg_indexes
        WHERE tablename IN ('services', 'vacancies') AND indexdef LIKE '%USING gin%'`),
    ).toBe(5);
    // The duplicate check's name key is written for every row of the load too.
    expect(
      await rows(
        sql`SELECT count(*)::int AS n FROM services WHERE name_key <> poruch_search_key(name)`,
      ),
    ).toBe(0);
    // Bulk mode ended with the transaction: a normal write is trigger-maintained again.
    await database.db.execute(sql`UPDATE services SET name = 'Перукарня «Тестова»'
      WHERE id = (SELECT id FROM services ORDER BY id LIMIT 1)`);
    expect(
      await rows(sql`SELECT count(*)::int AS n FROM services
        WHERE name_doc @@ to_tsquery('simple', 'testova') AND search_doc @@ to_tsquery('simple', 'testova')`),
    ).toBe(1);
  });

  it('reports progress per batch up to the totals', () => {
    expect(progress.at(0)).toEqual({ phase: 'services', done: 1000, total: 1200 });
    expect(progress.filter((p) => p.phase === 'services').at(-1)!.done).toBe(1200);
    expect(progress.at(-1)).toEqual({ phase: 'vacancies', done: 3600, total: 3600 });
  });

  it('spreads realistic services over categories, statuses and real cities', async () => {
    const rows = await database.db.select().from(services);
    expect(rows).toHaveLength(1200);
    expect(new Set(rows.map((r) => r.category).filter(Boolean))).toEqual(new Set(CATEGORY_KEYS));
    const share = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length / rows.length;
    expect(share((r) => r.status === 'approved')).toBeGreaterThan(0.85);
    expect(share((r) => r.status === 'pending')).toBeGreaterThan(0.03);
    expect(share((r) => r.status === 'declined')).toBeGreaterThan(0.01);
    expect(rows.filter((r) => r.status === 'declined').every((r) => r.declineReason)).toBe(true);
    expect(share((r) => r.isOnline)).toBeGreaterThan(0.04);
    expect(share((r) => r.countryCode === 'PL')).toBeGreaterThan(0.15);
    for (const r of rows) {
      expect(r.descriptionUa).toMatch(/[а-яіїєґ]/i);
      if (r.lat === null) continue;
      expect(Math.abs(r.lat)).toBeLessThanOrEqual(90);
      expect(r.addressDetails!.countryCode).toBe(r.countryCode);
      expect(r.address).toContain(r.addressDetails!.city);
    }
  });

  it('keeps have_vacancy true exactly for services with an open vacancy', async () => {
    const jobs = await database.db.select().from(vacancies);
    expect(jobs).toHaveLength(3600);
    const open = new Set(jobs.filter((v) => v.isOpen).map((v) => v.serviceId));
    const rows = await database.db.select().from(services);
    for (const r of rows) expect(r.haveVacancy).toBe(open.has(r.id));
    const perService = new Map<string, number>();
    for (const v of jobs) perService.set(v.serviceId, (perService.get(v.serviceId) ?? 0) + 1);
    expect(perService.size).toBeGreaterThan(300);
    expect(Math.max(...perService.values())).toBeLessThan(100);
  });

  // Last: it adds rows of other seeds (ids carry the seed, so they never collide) and removes them.
  it('gives the same rows for the same seed, other rows for another', async () => {
    const db = database.db;
    const run = async (seed: number) => {
      await seedSynthetic(db, { services: 60, vacancies: 150, seed });
      const prefix = `${seed.toString(16).padStart(8, '0')}-%`;
      const ofSeed = (id: typeof services.id | typeof vacancies.id) =>
        sql`${id}::text like ${prefix}`;
      const rows = {
        services: await db.select().from(services).where(ofSeed(services.id)).orderBy(services.id),
        vacancies: await db
          .select()
          .from(vacancies)
          .where(ofSeed(vacancies.id))
          .orderBy(vacancies.id),
      };
      await db.delete(services).where(ofSeed(services.id));
      return rows;
    };
    const a = await run(7);
    expect(a.services).toHaveLength(60);
    expect(a.vacancies).toHaveLength(150);
    expect(await run(7)).toEqual(a);
    const c = await run(8);
    expect(c.services.map((r) => r.name)).not.toEqual(a.services.map((r) => r.name));
  });
});
