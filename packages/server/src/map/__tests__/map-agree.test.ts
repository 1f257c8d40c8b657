import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResult, ServicePage } from '@poruch/core';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { bboxAround, insertServices, serviceRow, type NewService } from './helpers.js';

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

  it(`the same services for ${cases.length} combinations of q, country, category and online`, async () => {
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
        expect(map.status, query).toBe(200);
        expect(map.body.clusters, query).toEqual([]);
        onMap.push(...map.body.points.map((p) => p.id));
      }
      expect(onMap.sort(), query).toEqual(fromSearch);
      if (fromSearch.length) nonEmpty++;
    }
    // The data set makes most combinations find something.
    expect(nonEmpty).toBeGreaterThan(cases.length / 3);
  });
});
