import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResult, ServicePage } from '@poruch/core';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { eq } from 'drizzle-orm';
import { services } from '../../db/schema.js';
import { buildWordIndex, setWordIndex } from '../../search/wordIndex.js';
import { invalidateMap } from '../index.js';
import { bboxAround, insertServices, serviceRow, total, type NewService } from './helpers.js';

const WORLD = '-180,-85,180,85';

/**
 * On a fixed data set, the map and the services search agree service by service for the same
 * filters: every combination of q, country, category and online gives the map's points (zoomed in
 * so none is clustered) exactly the services the search lists with `onMap`.
 */
describe('GET /api/v1/map and GET /api/v1/services agree', () => {
  let server: TestServer;
  let client: TestClient;
  const PRAGUE = { lat: 50.08, lng: 14.42, countryCode: 'CZ' };
  const BERLIN = { lat: 52.52, lng: 13.4, countryCode: 'DE' };

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
    client = new TestClient(server.url);
    const names = [
      ['Стоматологія «Усмішка»', 'beauty_and_health'],
      ['Dental clinic Smile', 'beauty_and_health'],
      ['Ветеринар Друг', null],
      ['Ветеринарна клініка Лапа', 'other_services'],
      ['Стоматолог онлайн', 'beauty_and_health'],
    ] as const;
    const rows: NewService[] = [];
    // A grid 0.01° apart around each city: no two services clustered at zoom 14.
    for (const [c, city] of [PRAGUE, BERLIN].entries()) {
      for (let i = 0; i < 30; i++) {
        const [name, category] = names[(i + c) % names.length]!;
        rows.push(
          serviceRow({
            name: `${name} ${i}`,
            category,
            countryCode: city.countryCode,
            lat: city.lat + 0.01 * (i % 6),
            lng: city.lng + 0.01 * Math.floor(i / 6),
            isOnline: i % 4 === 0,
            // Off the map: hidden by its owner, and one not approved yet.
            showOnMap: i !== 7,
            status: i === 11 ? 'pending' : 'approved',
          }),
        );
      }
    }
    await insertServices(server.database.db, rows);
  });
  afterAll(() => server?.close());

  const QS = ['стоматолог', 'ветер', 'стоматолоґія', 'dental smile', 'клініка'];
  const COUNTRIES = [undefined, 'CZ', 'DE'];
  const CATEGORIES = [undefined, 'beauty_and_health', 'empty'];
  const ONLINE = [undefined, true];

  const cases = QS.flatMap((q) =>
    COUNTRIES.flatMap((country) =>
      CATEGORIES.flatMap((category) =>
        ONLINE.map((online) => {
          const params = new URLSearchParams({ q });
          if (country) params.set('country', country);
          if (category) params.set('category', category);
          if (online) params.set('online', 'true');
          return params.toString();
        }),
      ),
    ),
  );

  /**
   * Every case: the search's services with `onMap` (ids sorted), the map's points zoomed in
   * (none clustered there), and the map at zoom 3 over the world, where each city is one cluster
   * (its count must be the search's).
   */
  async function compareAll(label: string) {
    let nonEmpty = 0;
    for (const query of cases) {
      const search = await client.get<ServicePage>(
        `/api/v1/services?${query}&onMap=true&pageSize=50`,
      );
      expect(search.status, query).toBe(200);
      const fromSearch = search.body.items.map((s) => s.id).sort();
      expect(search.body.total, query).toBe(fromSearch.length);
      const onMap: string[] = [];
      for (const city of [PRAGUE, BERLIN]) {
        const box = bboxAround(city.lat + 0.03, city.lng + 0.03, 0.06);
        const map = await client.get<MapResult>(`/api/v1/map?bbox=${box}&zoom=14&${query}`);
        expect(map.status, `${label}: ${query}`).toBe(200);
        expect(map.body.clusters, `${label}: ${query}`).toEqual([]);
        onMap.push(...map.body.points.map((p) => p.id));
      }
      expect(onMap.sort(), `${label}: ${query}`).toEqual(fromSearch);
      const world = await client.get<MapResult>(`/api/v1/map?bbox=${WORLD}&zoom=3&${query}`);
      expect(world.status, `${label}: ${query}`).toBe(200);
      expect(total(world.body), `${label}: ${query}`).toBe(fromSearch.length);
      for (const p of world.body.points) expect(fromSearch, `${label}: ${query}`).toContain(p.id);
      if (fromSearch.length) nonEmpty++;
    }
    // The data set makes most combinations find something.
    expect(nonEmpty).toBeGreaterThan(cases.length / 3);
  }

  it(`the same services for ${cases.length} combinations of q, country, category and online, through the word index`, async () => {
    expect(await buildWordIndex(server.database.db)).toBe(true);
    // The map of every service built first: text queries are answered from its clusters.
    expect((await client.get(`/api/v1/map?bbox=${WORLD}&zoom=3`)).status).toBe(200);
    await compareAll('word index');
  });

  it('the same through the SQL path (the word index off)', async () => {
    setWordIndex(false);
    try {
      await compareAll('SQL');
    } finally {
      setWordIndex(true);
    }
  });

  it('a write shows in the next map answer, as in the search, on both paths of the map', async () => {
    expect(await buildWordIndex(server.database.db)).toBe(true);
    const q = `q=${encodeURIComponent('ветеринар')}&country=CZ`;
    const box = `bbox=${bboxAround(PRAGUE.lat + 0.03, PRAGUE.lng + 0.03, 0.06)}&zoom=14`;
    const points = async () =>
      (await client.get<MapResult>(`/api/v1/map?${box}&${q}`)).body.points.map((p) => p.id);
    const listed = async () =>
      (
        await client.get<ServicePage>(`/api/v1/services?${q}&onMap=true&pageSize=50`)
      ).body.items.map((s) => s.id);
    const before = await points();
    const [dentist] = await server.database.db
      .select({ id: services.id, name: services.name })
      .from(services)
      .where(eq(services.name, 'Dental clinic Smile 1'));
    expect(before).not.toContain(dentist!.id);
    // A rename (as the owner's edit does: the write, then the map told of it): the first answer
    // after it comes before the map of every service is rebuilt, the second from it.
    await server.database.db
      .update(services)
      .set({ name: 'Ветеринарна клініка Smile' })
      .where(eq(services.id, dentist!.id));
    await invalidateMap(server.app, { id: dentist!.id });
    for (const answer of ['first', 'second']) {
      const after = (await points()).sort();
      expect(after, answer).toEqual([...before, dentist!.id].sort());
      expect((await listed()).sort(), answer).toEqual(after);
    }
    // Off the map (hidden by its owner): gone from the next answer.
    await server.database.db
      .update(services)
      .set({ showOnMap: false })
      .where(eq(services.id, dentist!.id));
    await invalidateMap(server.app, { id: dentist!.id });
    expect(await points()).not.toContain(dentist!.id);
    expect(await points()).not.toContain(dentist!.id);
  });
});
