import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type MapResult, type ServicePage } from '@poruch/core';
import { eq } from 'drizzle-orm';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { services } from '../../db/schema.js';
import { Random } from '../../seed/random.js';
import { around, insertServices, serviceRow, total } from './helpers.js';

const WORLD = '-180,-85,180,85';

/** The map with `q` shows the set the services search finds for the same q and filters. */
describe('GET /api/v1/map with q', () => {
  let server: TestServer;
  let client: TestClient;
  let lawyerId: string;

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
    client = new TestClient(server.url);
    const random = new Random(11);
    const warsaw = { lat: 52.23, lng: 21.01 };
    const lisbon = { lat: 38.72, lng: -9.14 };
    const rows = [
      ...around(random, 12, warsaw, 0.01, { name: 'Пекарня Колосок', category: 'food' }),
      ...around(random, 7, lisbon, 0.01, {
        name: 'Bakery Lisboa',
        countryCode: 'PT',
        category: 'food',
      }),
      ...around(random, 9, warsaw, 0.01, { name: 'Юридична допомога', category: 'legal_services' }),
      ...around(random, 5, lisbon, 0.01, {
        name: 'Перукарня Online',
        countryCode: 'PT',
        category: 'beauty_and_health',
        isOnline: true,
      }),
    ];
    const ids = await insertServices(server.database.db, rows);
    lawyerId = ids[19]!;
  });
  afterAll(() => server?.close());

  /** The search total and the map's world count, zoomed out and in, for one query string. */
  async function compare(query: string) {
    const search = await client.get<ServicePage>(`/api/v1/services?${query}&pageSize=1`);
    const world = await client.get<MapResult>(`/api/v1/map?bbox=${WORLD}&zoom=2&${query}`);
    const close = await client.get<MapResult>(`/api/v1/map?bbox=${WORLD}&zoom=5&${query}`);
    expect([world.status, world.body], JSON.stringify(search.body)).toEqual([
      search.status,
      world.body,
    ]);
    if (search.status !== 200) return { status: search.status, total: 0 };
    expect(search.body.totalIsEstimate).toBeUndefined();
    expect(total(world.body)).toBe(search.body.total);
    expect(total(close.body)).toBe(search.body.total);
    return { status: 200, total: search.body.total };
  }

  // The search decides what matches (typos, transliteration, prefixes): the map shows the same.
  it.each([
    ['a word in names', 'q=пекарня', 'some'],
    ['Latin for a Cyrillic name', 'q=pekarnia', 'some'],
    ['a typo', 'q=пекарян', 'some'],
    ['a prefix', 'q=bak', 'some'],
    ['a country', 'q=bakery&country=PT', 7],
    ['a country with no match', 'q=lisboa&country=PL', 0],
    ['a category', 'q=юридична&category=legal_services', 9],
    ['a category with no match', 'q=юридична&category=food', 0],
    ['online only', 'q=перукарня&online=true', 5],
    ['a word matching nothing', 'q=zzzqxj', 0],
    ['punctuation only (no word: every service)', 'q=%22%22%3F%21', 33],
    ['white space only', 'q=%20%20', 33],
  ] as const)('%s: the same count as the search', async (_name, query, expected) => {
    const { total: n } = await compare(query);
    if (expected === 'some') expect(n).toBeGreaterThan(0);
    else expect(n).toBe(expected);
  });

  it('control characters: refused by both, as the search refuses them', async () => {
    for (const q of ['a\u0000b', 'пекарня\u0007', '\u001b[31m', '\u007f']) {
      const res = await compare(`q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(400);
    }
  });

  it('text up to the longest allowed, and one character over it', async () => {
    const words = 'пекарня колосок '.repeat(20).slice(0, LIMITS.searchQueryMax);
    expect((await compare(`q=${encodeURIComponent(words)}`)).total).toBe(12);
    const long = 'я'.repeat(LIMITS.searchQueryMax);
    expect((await compare(`q=${encodeURIComponent(long)}`)).status).toBe(200);
    expect((await compare(`q=${encodeURIComponent(`${long}я`)}`)).status).toBe(400);
  });

  it('follows a description edit, which leaves the map as it was, with a new ETag', async () => {
    const url = `/api/v1/map?bbox=${WORLD}&zoom=2&q=${encodeURIComponent('колосок')}`;
    const before = await client.get<MapResult>(url);
    expect(total(before.body)).toBe(12);
    const etag = before.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // Not a map field: the map's own version does not move, the search's matches do.
    await server.database.db
      .update(services)
      .set({ descriptionUa: 'Поруч із пекарнею Колосок' })
      .where(eq(services.id, lawyerId));
    const after = await client.get<MapResult>(url, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(total(after.body)).toBe(13);
    expect(await compare('q=колосок')).toEqual({ status: 200, total: 13 });
  });

  it('onMap: the services search over a box lists what the map shows there, as the list view asks', async () => {
    await insertServices(server.database.db, [
      serviceRow({ name: 'Пекарня прихована', showOnMap: false }),
      serviceRow({ name: 'Пекарня без місця', lat: null, lng: null }),
    ]);
    const box = '20,52,22,53';
    const map = await client.get<MapResult>(`/api/v1/map?bbox=${box}&zoom=3`);
    const all = await client.get<ServicePage>(`/api/v1/services?bbox=${box}`);
    const listed = await client.get<ServicePage>(`/api/v1/services?bbox=${box}&onMap=true`);
    expect(total(map.body)).toBeGreaterThan(0);
    expect(all.body.total).toBe(total(map.body) + 1);
    expect(listed.body.total).toBe(total(map.body));
    expect(listed.body.items.map((s) => s.name)).not.toContain('Пекарня прихована');
    // With q too: the map with q is the search with onMap.
    const world = await client.get<MapResult>(`/api/v1/map?bbox=${WORLD}&zoom=2&q=пекарня`);
    const search = await client.get<ServicePage>(`/api/v1/services?q=пекарня&onMap=true`);
    expect(total(world.body)).toBe(search.body.total);
  });
});
