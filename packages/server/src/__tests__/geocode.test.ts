import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const geocode = (client: TestClient, address: string, country?: string, path = 'geocode') =>
  client.get(
    `/api/v1/${path}?${new URLSearchParams({ address, ...(country ? { country } : {}) })}`,
  );
const suggest = (client: TestClient, address: string, country?: string) =>
  geocode(client, address, country, 'geocode/suggest');

describe('GET /api/v1/geocode with the offline gazetteer', () => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = new TestClient(server.url);
  });
  afterAll(() => server?.close());

  it('answers one city for a full address, approximate', async () => {
    const res = await geocode(client, 'ul. Marszałkowska 10, 00-001 Warszawa');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      candidates: [
        {
          lat: expect.closeTo(52.23, 1),
          lng: expect.closeTo(21.01, 1),
          displayName: 'Warsaw, PL',
          city: 'Warsaw',
          countryCode: 'PL',
          approximate: true,
          source: 'gazetteer',
        },
      ],
    });
  });

  it('answers ambiguous with the options, and a country narrows it', async () => {
    const res = await geocode(client, 'Paris');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ambiguous');
    expect(res.body.candidates.length).toBeGreaterThan(1);
    expect(res.body.candidates.length).toBeLessThanOrEqual(5);
    expect(res.body.candidates[0].countryCode).toBe('FR');

    const narrowed = await geocode(client, 'Paris', 'FR');
    expect(narrowed.body.status).toBe('ok');
    expect(narrowed.body.candidates[0].displayName).toBe('Paris, FR');
  });

  it('answers wrong_address when no place matches', async () => {
    const res = await geocode(client, 'Qwzx Plmk 12');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'wrong_address', candidates: [] });
    expect((await geocode(client, 'Kraków', 'DE')).body.status).toBe('wrong_address');
  });

  it('understands Ukrainian Cyrillic', async () => {
    for (const [address, city] of [
      ['Варшава', 'Warsaw'],
      ['вул. Хрещатик 1, Київ', 'Kyiv'],
      ['Мюнхен, Німеччина', 'Munich'],
      ['Нью-Йорк', 'New York City'],
    ]) {
      const res = await geocode(client, address!);
      expect(res.body.status, address).toBe('ok');
      expect(res.body.candidates[0].city, address).toBe(city);
    }
  });

  it('answers any origin without credentials', async () => {
    const res = await client.get('/api/v1/geocode?address=Berlin&country=DE', {
      headers: { origin: 'https://diaspora.example.org' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('offers each town of a repeated name, told apart by region or nearest town', async () => {
    const res = await geocode(client, 'Hauptstraße 1, Neustadt', 'DE');
    expect(res.body.status).toBe('ambiguous');
    expect(res.body.candidates.map((c: { displayName: string }) => c.displayName)).toEqual([
      'Neustadt, Rheinland-Pfalz, DE',
      'Neustadt, Hamburg, DE',
      'Neustadt, Lower Saxony, DE',
    ]);
    const czarna = await geocode(client, 'Czarna', 'PL');
    expect(czarna.body.candidates).toHaveLength(3);
    for (const c of czarna.body.candidates)
      expect(c.displayName).toMatch(/^Czarna \(.+\), Subcarpathia, PL$/);
  });

  it('suggests places for a partly typed address, each a complete candidate', async () => {
    const res = await suggest(client, 'Hauptstraße 1, Neust', 'DE');
    expect(res.status).toBe(200);
    expect(res.body.suggestions.length).toBeGreaterThan(1);
    expect(res.body.suggestions.length).toBeLessThanOrEqual(6);
    expect(res.body.suggestions[0]).toEqual({
      lat: expect.closeTo(49.35, 1),
      lng: expect.closeTo(8.14, 1),
      displayName: 'Neustadt, Rheinland-Pfalz, DE',
      city: 'Neustadt',
      countryCode: 'DE',
      approximate: true,
      source: 'gazetteer',
    });
    expect((await suggest(client, 'Варш')).body.suggestions[0].city).toBe('Warsaw');
    expect((await suggest(client, 'Qwzx', 'DE')).body).toEqual({ suggestions: [] });
    const cors = await client.get('/api/v1/geocode/suggest?address=Ber', {
      headers: { origin: 'https://diaspora.example.org' },
    });
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('rejects bad input with validation_failed', async () => {
    for (const query of [
      'address=',
      'address=%20%20',
      `address=${'a'.repeat(301)}`,
      '',
      'address=Berlin&country=Germany',
      'address=Berlin&extra=1',
    ]) {
      for (const path of ['geocode', 'geocode/suggest']) {
        const res = await client.get(`/api/v1/${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.errors.message, `${path}?${query}`).toBe('validation_failed');
      }
    }
  });
});

/** A loopback server speaking Nominatim's `/search?format=jsonv2` with canned answers. */
async function fakeNominatim() {
  const requests: { url: URL; headers: http.IncomingHttpHeaders }[] = [];
  const place = (name: string, lat: string, lon: string, extra: object = {}) => ({
    place_id: Math.floor(Math.random() * 1e6),
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0.',
    osm_type: 'way',
    lat,
    lon,
    category: 'building',
    type: 'yes',
    place_rank: 30,
    importance: 0.2,
    addresstype: 'building',
    name: '',
    display_name: name,
    address: {
      house_number: '10',
      road: 'Marszałkowska',
      city: 'Warszawa',
      postcode: '00-001',
      country: 'Polska',
      country_code: 'pl',
    },
    boundingbox: ['52.2', '52.3', '21.0', '21.1'],
    ...extra,
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    requests.push({ url, headers: req.headers });
    const q = url.searchParams.get('q') ?? '';
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/search') return json(404, { error: 'not found' });
    if (q.includes('Marszałkowska')) {
      return json(200, [
        place('10, Marszałkowska, Śródmieście, Warszawa, 00-001, Polska', '52.2297', '21.0122'),
      ]);
    }
    if (q === 'Springfield') {
      return json(200, [
        place('Springfield, Illinois, United States', '39.80', '-89.64', {
          type: 'city',
          addresstype: 'city',
          place_rank: 16,
          address: { city: 'Springfield', state: 'Illinois', country_code: 'us' },
        }),
        place('Springfield, Missouri, United States', '37.21', '-93.29', {
          type: 'city',
          addresstype: 'city',
          place_rank: 16,
          address: { city: 'Springfield', state: 'Missouri', country_code: 'us' },
        }),
      ]);
    }
    if (q === 'broken') return json(500, { error: 'internal' });
    if (q === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('<html>');
    }
    if (q === 'slow') return setTimeout(() => json(200, []), 8000).unref();
    return json(200, []);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('GET /api/v1/geocode with GEOCODER_URL (Nominatim)', () => {
  let nominatim: Awaited<ReturnType<typeof fakeNominatim>>;
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    nominatim = await fakeNominatim();
    server = await startTestServer({ GEOCODER_URL: `${nominatim.url}/` });
    client = new TestClient(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await nominatim?.close();
  });

  it('asks /search in jsonv2 with address details, a user agent and a language', async () => {
    nominatim.requests.length = 0;
    await geocode(client, 'ul. Marszałkowska 10, Warszawa', 'PL');
    expect(nominatim.requests).toHaveLength(1);
    const { url, headers } = nominatim.requests[0]!;
    expect(url.pathname).toBe('/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'ul. Marszałkowska 10, Warszawa',
      format: 'jsonv2',
      addressdetails: '1',
      limit: '5',
      countrycodes: 'pl',
    });
    expect(headers['user-agent']).toMatch(/^Poruch\/\d+\.\d+\.\d+ \(\+http:\/\/localhost:8080\)$/);
    expect(headers['accept-language']).toBe('uk,en');
  });

  it('answers one result as ok and precise', async () => {
    const res = await geocode(client, 'ul. Marszałkowska 10, Warszawa');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      candidates: [
        {
          lat: 52.2297,
          lng: 21.0122,
          displayName: '10, Marszałkowska, Śródmieście, Warszawa, 00-001, Polska',
          city: 'Warszawa',
          countryCode: 'PL',
          approximate: false,
          source: 'nominatim',
        },
      ],
    });
  });

  it('answers several results as ambiguous; city-level ones are approximate', async () => {
    const res = await geocode(client, 'Springfield');
    expect(res.body.status).toBe('ambiguous');
    expect(res.body.candidates).toHaveLength(2);
    expect(res.body.candidates[1]).toMatchObject({
      city: 'Springfield',
      countryCode: 'US',
      approximate: true,
      source: 'nominatim',
    });
  });

  it('answers no result as wrong_address', async () => {
    const res = await geocode(client, 'Nowhere at all');
    expect(res.body).toEqual({ status: 'wrong_address', candidates: [] });
  });

  it('suggests what the geocoder answers for the text so far', async () => {
    const res = await suggest(client, 'Springfield');
    expect(res.status).toBe(200);
    expect(res.body.suggestions.map((c: { displayName: string }) => c.displayName)).toEqual([
      'Springfield, Illinois, United States',
      'Springfield, Missouri, United States',
    ]);
    expect((await suggest(client, 'nothing here')).body).toEqual({ suggestions: [] });
    expect((await suggest(client, 'broken')).status).toBe(503);
  });

  it('answers 503 service_unavailable when the geocoder fails', async () => {
    for (const address of ['broken', 'garbage']) {
      const res = await geocode(client, address);
      expect(res.status, address).toBe(503);
      expect(res.body.errors.message, address).toBe('service_unavailable');
    }
  });

  it('answers 503 service_unavailable when the geocoder is too slow', async () => {
    // The fake answers `[]` after 8 s: had the server waited for it, this would be wrong_address.
    const res = await geocode(client, 'slow');
    expect(res.status).toBe(503);
    expect(res.body.errors.message).toBe('service_unavailable');
  }, 10_000);
});

describe('GET /api/v1/geocode rate limit', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('limits one IP to 60 lookups a minute', async () => {
    server = await startTestServer();
    const client = new TestClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await geocode(client, 'Kraków')).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('limits one IP to 120 suggestions a minute, counted apart from lookups', async () => {
    const client = new TestClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await suggest(client, 'Krak')).status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
  });
});
