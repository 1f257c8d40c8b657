import type { MapResult, ServicePage } from '@poruch/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { services } from '../../db/schema.js';
import { queryTokens, transliterate } from '../normalize.js';
import { total } from '../../map/__tests__/helpers.js';
import { insertCatalogue } from './catalogue.js';

/**
 * Search as you type: every prefix a visitor types, over HTTP on the fixed catalogue, finds
 * exactly the services in which each of its words starts a word (checked against the search
 * documents' own words), in Cyrillic and in Latin letters, whichever way the search reads the
 * matches (through the index or in order); the map agrees; a write shows in the next prefix.
 */
describe('search as you type (prefixes)', () => {
  let server: TestServer;
  let client: TestClient;
  /** Each approved, visible service's id → the words of its search document. */
  let docs: Map<string, string[]>;

  const words = async () => {
    const res = await server.database.db.execute(sql`
      SELECT id, tsvector_to_array(search_doc) AS words FROM services
       WHERE status = 'approved' AND confirmation <> 'lapsed'`);
    const rows = (res as unknown as { rows: { id: string; words: string[] }[] }).rows;
    return new Map(rows.map((r) => [r.id, r.words]));
  };
  /** The services whose document has, for every word of q, a word it starts. */
  const expected = (q: string) => {
    const tokens = queryTokens(q);
    return [...docs]
      .filter(([, ws]) => tokens.every((t) => ws.some((w) => w.startsWith(t))))
      .map(([id]) => id)
      .sort();
  };
  const search = async (q: string) => {
    const res = await client.get<ServicePage>(
      `/api/v1/services?${new URLSearchParams({ q, pageSize: '50' }).toString()}`,
    );
    expect(res.status, q).toBe(200);
    return res.body;
  };
  const found = async (q: string) => (await search(q)).items.map((i) => i.id).sort();

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
    client = new TestClient(server.url);
    await insertCatalogue(server.database.db);
    // With statistics, the search knows how many services there are and reads a rare prefix's
    // matches through the index, a frequent one's in order: both ways are checked below.
    await server.database.db.execute(sql`ANALYZE services`);
    docs = await words();
  });
  afterAll(() => server?.close());

  /** Every prefix of 2 and 3 letters of every word of the catalogue's names and descriptions. */
  async function shortPrefixes(): Promise<string[]> {
    const res = await server.database.db.execute(sql`
      SELECT name, description_ua, description_other FROM services`);
    const rows = (
      res as unknown as {
        rows: { name: string; description_ua: string; description_other: string }[];
      }
    ).rows;
    const out = new Set<string>();
    for (const text of rows.flatMap((r) => [r.name, r.description_ua, r.description_other])) {
      for (const w of text.toLowerCase().split(/[^\p{L}]+/u)) {
        const chars = [...w];
        for (const n of [2, 3]) if (chars.length >= n) out.add(chars.slice(0, n).join(''));
      }
    }
    // Only words too short to be corrected: they match as themselves or as prefixes.
    return [...out].filter((p) => queryTokens(p).every((t) => t.length < 4));
  }

  it(
    'every 2- and 3-letter prefix, as typed and in Latin letters, finds exactly its matches',
    {
      timeout: 120_000,
    },
    async () => {
      const prefixes = await shortPrefixes();
      const cyrillic = prefixes.filter((p) => /\p{Script=Cyrillic}/u.test(p));
      expect(cyrillic.length).toBeGreaterThan(40);
      expect(prefixes.length - cyrillic.length).toBeGreaterThan(40);
      const latin = cyrillic.map((p) => transliterate(p).toLowerCase());
      let some = 0;
      for (const q of [...prefixes, ...latin]) {
        const want = expected(q);
        if (want.length) some++;
        const page = await search(q);
        expect(page.total, q).toBe(want.length);
        expect(page.items.map((i) => i.id).sort(), q).toEqual(want);
      }
      expect(some).toBeGreaterThan(prefixes.length / 2);
    },
  );

  it('longer prefixes (4 to 6 letters) find at least every service a word of which they start', async () => {
    for (const q of ['перук', 'стомат', 'wars', 'famil', 'vare', 'школ', 'shkol', 'перекл']) {
      const want = expected(q);
      expect(want.length, q).toBeGreaterThan(0);
      expect(await found(q), q).toEqual(expect.arrayContaining(want));
    }
  });

  it('several words: each is a prefix, all must match', async () => {
    for (const q of ['пер кал', 'суб шк', 'hair fam', 'kyiv st', 'ре вар']) {
      const want = expected(q);
      const got = await found(q);
      expect(got, q).toEqual(expect.arrayContaining(want));
      // Every result has each word, whole, as a prefix or corrected: at least as a prefix for
      // the short ones.
      for (const id of got) {
        for (const t of queryTokens(q).filter((x) => x.length < 4)) {
          expect(
            docs.get(id)!.some((w) => w.startsWith(t)),
            `${q}: ${t}`,
          ).toBe(true);
        }
      }
    }
  });

  it('the map shows the services the prefix search finds', async () => {
    for (const q of ['пе', 'ka', 'шко', 'wa', 'kyi']) {
      const query = new URLSearchParams({ q }).toString();
      const onMap = await client.get<ServicePage>(`/api/v1/services?${query}&onMap=true`);
      const map = await client.get<MapResult>(`/api/v1/map?bbox=-180,-85,180,85&zoom=2&${query}`);
      expect(map.status).toBe(200);
      expect(onMap.body.total, q).toBeGreaterThan(0);
      expect(total(map.body), q).toBe(onMap.body.total);
    }
  });

  it('a write shows in the next prefix search', async () => {
    expect(await found('ґуд')).toEqual([]);
    await server.database.db.execute(sql`
      INSERT INTO services (name, country_code, status, description_ua)
      VALUES ('Швейна майстерня «Ґудзик»', 'FR', 'approved', 'Ремонт одягу.')`);
    const [{ id }] = (
      (await server.database.db.execute(
        sql`SELECT id FROM services WHERE name = 'Швейна майстерня «Ґудзик»'`,
      )) as unknown as { rows: [{ id: string }] }
    ).rows;
    expect(await found('ґу')).toContain(id);
    expect(await found('gud')).toEqual([id]);
    expect(await found('ґудз')).toEqual([id]);
    expect(await found('швей ґу')).toEqual([id]);
    await server.database.db
      .update(services)
      .set({ name: 'Швейна майстерня «Наперсток»' })
      .where(eq(services.id, id));
    expect(await found('ґуд')).toEqual([]);
    expect(await found('напе')).toContain(id);
    await server.database.db.update(services).set({ status: 'pending' }).where(eq(services.id, id));
    expect(await found('напе')).not.toContain(id);
  });
});
