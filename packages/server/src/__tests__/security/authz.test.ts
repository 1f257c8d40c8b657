import { sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CSRF_EXEMPT, MATRIX, type Entry } from './authz-matrix.js';
import {
  ACTORS,
  browserOf,
  fillPath,
  routeKeys,
  seedWorld,
  snapshot,
  type Actor,
  type World,
} from './world.js';

const DENY_KEYS: Record<number, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'resource_was_not_found',
};
/** /metrics is registered for real (with its bearer token), so the matrix checks it too. */
const METRICS_TOKEN = 'matrix-metrics-token-0123456789';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A same-site origin allowed to make credentialed calls (ALLOWED_ORIGINS). */
const ALLOWED_ORIGIN = 'https://dashboard.localhost:8080';

let server: TestServer;
let table: { key: string; route: RouteOptions }[];

beforeAll(async () => {
  // No mail worker: the outbox rows a request queues stay put, so snapshots compare exactly.
  server = await startTestServer({
    MAIL_WORKER: 'false',
    METRICS_TOKEN: METRICS_TOKEN,
    ALLOWED_ORIGINS: ALLOWED_ORIGIN,
    // The anonymous routes' per-IP limits: the Origin tests call them from addresses of their own.
    TRUST_PROXY: 'loopback',
  });
  table = routeKeys(server.app.routeTable);
});
afterAll(() => server?.close());

/** The matrix entry of a route key: a HEAD route that Fastify added for a GET uses the GET's. */
const entryOf = (key: string): Entry | undefined =>
  MATRIX[key] ?? (key.startsWith('HEAD ') ? MATRIX[`GET ${key.slice(5)}`] : undefined);

/** The request of a cell, built from the entry's call over the cell's world. */
function requestOf(key: string, entry: Entry, world: World) {
  const space = key.indexOf(' ');
  const method = key.slice(0, space);
  const url = key.slice(space + 1);
  const call = entry.call?.(world) ?? {};
  const params = call.params ?? (url.includes(':id') ? { id: world.serviceId } : {});
  let target = fillPath(url, params);
  if (call.query) target += `?${new URLSearchParams(call.query)}`;
  return { method, target, call };
}

/** Runs one cell for real; answers what went wrong, or null. */
async function runCell(key: string, entry: Entry, actor: Actor): Promise<string | null> {
  const world = await seedWorld(server, actor);
  const client = await browserOf(server, world);
  const { method, target, call } = requestOf(key, entry, world);
  const expected = entry.cells[actor];
  const before = expected === 'allow' ? undefined : await snapshot(server, world);
  const res = await client.request<any>(method, target, call.body, { headers: call.headers });
  const got = `${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
  if (expected === 'allow') {
    return res.status < 400 ? null : `${actor}: expected allow, got ${got}`;
  }
  if (res.status !== expected) return `${actor}: expected ${expected}, got ${got}`;
  if (method !== 'HEAD' && res.body?.errors?.message !== DENY_KEYS[expected]) {
    return `${actor}: expected key ${DENY_KEYS[expected]}, got ${got}`;
  }
  if ((await snapshot(server, world)) !== before) return `${actor}: denied, but the data changed`;
  return null;
}

describe('authorisation matrix (generated from the route table)', () => {
  it('has an entry for every route and a route for every entry', () => {
    const keys = new Set(table.map((r) => r.key));
    const missing = [...keys].filter((k) => !entryOf(k));
    const orphans = Object.entries(MATRIX)
      .filter(([k, e]) => !keys.has(k) && !e.optional)
      .map(([k]) => k);
    expect(missing, 'routes without a matrix entry (add them to authz-matrix.ts)').toEqual([]);
    expect(orphans, 'matrix entries without a route').toEqual([]);
    // The table is the real one: it holds the routes of every area.
    expect(keys.size).toBeGreaterThan(60);
  });

  const keysInMatrix = Object.keys(MATRIX);
  it.each(keysInMatrix)('%s: every actor gets its cell', async (key) => {
    const head = key.startsWith('GET ') ? `HEAD ${key.slice(4)}` : undefined;
    const routes = table.filter((r) => r.key === key || r.key === head);
    if (!routes.some((r) => r.key === key)) {
      expect(MATRIX[key]!.optional, `${key} is not registered`).toBeTruthy();
      return;
    }
    const failures: string[] = [];
    for (const { key: routeKey } of routes) {
      for (const actor of ACTORS) {
        const failure = await runCell(routeKey, entryOf(routeKey)!, actor);
        if (failure) failures.push(`${routeKey} ${failure}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('CSRF (generated from the route table)', () => {
  it('lists only real state-changing routes as exceptions, each opted out on purpose', () => {
    for (const key of Object.keys(CSRF_EXEMPT)) {
      const found = table.find((r) => r.key === key);
      expect(found, `${key} is listed as a CSRF exception but is not a route`).toBeDefined();
      expect(STATE_CHANGING.has(key.split(' ')[0]!)).toBe(true);
      expect(found!.route.config?.csrf).toBe(false);
    }
    // And nothing else opts out.
    const optedOut = table
      .filter((r) => STATE_CHANGING.has(r.key.split(' ')[0]!) && r.route.config?.csrf === false)
      .map((r) => r.key);
    expect(optedOut.sort()).toEqual(Object.keys(CSRF_EXEMPT).sort());
  });

  it('refuses every other state-changing route with a session but a missing or mismatched token', async () => {
    const changing = table.filter(
      (r) => STATE_CHANGING.has(r.key.split(' ')[0]!) && !CSRF_EXEMPT[r.key],
    );
    expect(changing.length).toBeGreaterThan(20);
    const other = new TestClient(server.url);
    await other.init();
    const foreignToken = decodeURIComponent(other.cookies.get('XSRF-TOKEN')!);
    const failures: string[] = [];
    for (const { key } of changing) {
      const entry = entryOf(key)!;
      // A logged-in actor whom the route would otherwise let through.
      const actor = allowedActor(key, entry);
      for (const [label, headers] of [
        ['missing', {}],
        ['forged', { 'x-xsrf-token': 'forged-token' }],
        ["another browser's", { 'x-xsrf-token': foreignToken }],
      ] as const) {
        const world = await seedWorld(server, actor);
        const client = await browserOf(server, world);
        const { method, target, call } = requestOf(key, entry, world);
        const before = await snapshot(server, world);
        const res = await client.request<any>(method, target, call.body, {
          csrf: false,
          headers: { ...call.headers, ...headers },
        });
        if (res.status !== 403 || res.body?.errors?.message !== 'csrf_token_invalid') {
          failures.push(`${key} (${label} token): ${res.status} ${JSON.stringify(res.body)}`);
        } else if ((await snapshot(server, world)) !== before) {
          failures.push(`${key} (${label} token): refused, but the data changed`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

/** A logged-in actor whom the route lets through (owner or super administrator). */
function allowedActor(key: string, entry: Entry) {
  const actor = (['owner', 'superAdmin'] as const).find((a) => entry.cells[a] === 'allow');
  if (!actor) throw new Error(`${key}: no logged-in actor is allowed`);
  return actor;
}

describe('Origin and Sec-Fetch-Site (generated from the route table)', () => {
  /** What a browser sends from a page of another site, or from no real page at all. */
  const FOREIGN: [string, Record<string, string>][] = [
    ['Origin: https://evil.example', { origin: 'https://evil.example' }],
    [
      'Origin: https://evil.example, Sec-Fetch-Site: cross-site',
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ],
    ['Sec-Fetch-Site: cross-site, no Origin', { 'sec-fetch-site': 'cross-site' }],
    [
      'Sec-Fetch-Site: cross-site with our own Origin',
      { origin: 'http://localhost:8080', 'sec-fetch-site': 'cross-site' },
    ],
    ['Origin: null (sandboxed frame, data: page)', { origin: 'null' }],
    ['a look-alike origin', { origin: 'http://localhost:8080.evil.example' }],
    ['our host on another scheme', { origin: 'https://localhost:8080' }],
    ['our host on another port', { origin: 'http://localhost:8081' }],
  ];
  /**
   * What a browser sends from the site itself or from an allowed origin (the matrix's cells send
   * neither header, as curl does, and are let through by the token alone).
   */
  const OWN: [string, Record<string, string>][] = [
    ['same origin', { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' }],
    ['ALLOWED_ORIGINS, same site', { origin: ALLOWED_ORIGIN, 'sec-fetch-site': 'same-site' }],
  ];
  let address = 0;
  /** A new client address for each anonymous call (reports allow 10 an hour per address). */
  const nextAddress = () => `198.51.100.${++address}`;
  const changing = () =>
    table.filter((r) => STATE_CHANGING.has(r.key.split(' ')[0]!) && !CSRF_EXEMPT[r.key]);

  it('refuses every state-changing route from another site, with a session and a valid token', async () => {
    expect(changing().length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { key } of changing()) {
      const entry = entryOf(key)!;
      for (const [label, headers] of FOREIGN) {
        const world = await seedWorld(server, allowedActor(key, entry));
        const client = await browserOf(server, world);
        const { method, target, call } = requestOf(key, entry, world);
        const before = await snapshot(server, world);
        const res = await client.request<any>(method, target, call.body, {
          headers: { ...call.headers, ...headers },
        });
        if (res.status !== 403 || res.body?.errors?.message !== 'forbidden') {
          failures.push(`${key} (${label}): ${res.status} ${JSON.stringify(res.body)}`);
        } else if (res.body?.error?.message !== 'origin') {
          failures.push(`${key} (${label}): no origin detail ${JSON.stringify(res.body)}`);
        } else if ((await snapshot(server, world)) !== before) {
          failures.push(`${key} (${label}): refused, but the data changed`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets the site and allowed origins through on every such route', async () => {
    const failures: string[] = [];
    for (const { key } of changing()) {
      const entry = entryOf(key)!;
      for (const [label, headers] of OWN) {
        const world = await seedWorld(server, allowedActor(key, entry));
        const client = await browserOf(server, world);
        const { method, target, call } = requestOf(key, entry, world);
        const res = await client.request<any>(method, target, call.body, {
          headers: { ...call.headers, ...headers },
        });
        if (res.status >= 400) {
          failures.push(`${key} (${label}): ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('the anonymous widget calls still work from any site, without a session', async () => {
    const failures: string[] = [];
    for (const key of Object.keys(CSRF_EXEMPT)) {
      const entry = entryOf(key)!;
      for (const [label, headers] of FOREIGN) {
        const world = await seedWorld(server, 'visitor');
        const client = await browserOf(server, world);
        const { method, target, call } = requestOf(key, entry, world);
        const res = await client.request<any>(method, target, call.body, {
          csrf: false,
          headers: { ...call.headers, ...headers, 'x-forwarded-for': nextAddress() },
        });
        // Reports and alerts refuse opaque origins on their own (a script or a sandboxed frame).
        const opaque =
          (key === 'POST /api/v1/reports' || key === 'POST /api/v1/alerts') &&
          headers.origin === 'null';
        if (opaque ? res.status !== 403 : res.status >= 400) {
          failures.push(`${key} (${label}): ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses the anonymous routes from another site when they carry a session cookie', async () => {
    const failures: string[] = [];
    for (const key of Object.keys(CSRF_EXEMPT)) {
      const entry = entryOf(key)!;
      const world = await seedWorld(server, 'owner');
      const client = await browserOf(server, world);
      const { method, target, call } = requestOf(key, entry, world);
      const before = await snapshot(server, world);
      const res = await client.request<any>(method, target, call.body, {
        headers: {
          ...call.headers,
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        },
      });
      if (res.status !== 403 || res.body?.errors?.message !== 'forbidden') {
        failures.push(`${key}: ${res.status} ${JSON.stringify(res.body)}`);
      } else if ((await snapshot(server, world)) !== before) {
        failures.push(`${key}: refused, but the data changed`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('what the public routes show', () => {
  it('never shows a pending or declined service, or its vacancies, to anyone but its owner', async () => {
    const world = await seedWorld(server, 'otherPartner');
    const tag = `Невидимка${Date.now().toString(36)}`;
    const db = server.database.db;
    const hidden: string[] = [];
    const addService = async (status: string, name: string) => {
      const result = await db.execute(sql`
        WITH svc AS (
          INSERT INTO services (owner_id, name, country_code, category, address, lat, lng, status)
          VALUES (${world.owner.id}, ${name}, 'PL', 'beauty_and_health', 'Warszawa', 52.2297,
            21.0122, ${status})
          RETURNING id
        )
        INSERT INTO vacancies (service_id, name) SELECT id, ${`${name} вакансія`} FROM svc
        RETURNING service_id
      `);
      return (result as unknown as { rows: { service_id: string }[] }).rows[0]!.service_id;
    };
    hidden.push(await addService('pending', `${tag} pending`));
    hidden.push(await addService('declined', `${tag} declined`));
    // The control: an approved one with the same words is found, so the searches do work.
    const shown = await addService('approved', `${tag} approved`);
    await db.execute(sql`UPDATE services SET have_vacancy = true WHERE id = ${shown}`);

    for (const client of [
      await browserOf(server, { ...world, sessionToken: null }),
      await browserOf(server, world),
    ]) {
      const search = await client.get(`/api/v1/services?q=${encodeURIComponent(tag)}`);
      expect(search.status).toBe(200);
      const ids = (search.body.items as { id: string }[]).map((s) => s.id);
      expect(ids).toContain(shown);
      const vacancies = await client.get(`/api/v1/vacancies?q=${encodeURIComponent(tag)}`);
      expect(vacancies.status).toBe(200);
      const vacancyServices = JSON.stringify(vacancies.body);
      expect(vacancyServices).toContain(shown);
      const map = await client.get('/api/v1/map?bbox=20.9,52.1,21.1,52.3&zoom=18');
      expect(map.status).toBe(200);
      const sitemap = await client.get('/sitemap.xml');
      for (const id of hidden) {
        expect(ids).not.toContain(id);
        expect(vacancyServices).not.toContain(id);
        expect(JSON.stringify(map.body)).not.toContain(id);
        expect(String(sitemap.body)).not.toContain(id);
        expect((await client.get(`/api/v1/services/${id}`)).status).toBe(404);
        expect((await client.get(`/api/v1/vacancies?serviceId=${id}`)).body.items).toEqual([]);
        const used = await client.post(`/api/v1/services/${id}/used`, {
          browserId: 'hidden-service-browser-1',
        });
        expect(used.status).toBe(404);
        // Reports are limited to 10 an hour per address: the visitor's are enough.
        if (!client.cookies.has('poruch_session')) {
          const report = await client.post('/api/v1/reports', { serviceId: id, reason: 'other' });
          expect(report.status).toBe(404);
        }
      }
    }
  }, 120_000);
});
