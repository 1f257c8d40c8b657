import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS, VALIDATION_KEYS, uncheckedTexts } from '@poruch/core';
import { services } from '../../db/schema.js';
import { loggedIn, partner } from '../helpers/actors.js';
import { TestClient, type TestResponse } from '../helpers/client.js';
import { registration } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Text the database cannot store (U+0000, which PostgreSQL refuses; a lone surrogate, which has
 * no UTF-8) and control characters, sent over HTTP to the write routes, the read routes' query
 * strings, path parameters, cookies and headers: a 400 with validation.invalid_characters on the
 * field, nothing written, never a 500. On PGlite and, in the server-pg project, on PostgreSQL.
 */
const BAD = {
  NUL: 'a\u0000b',
  'a lone high surrogate': 'a\uD800b',
  'a lone low surrogate': 'a\uDC00b',
  'a control character': 'a\u001Bb',
};
/** The same in a URL: NUL, a C0 and a C1 control, percent-encoded. */
const BAD_IN_URL = { NUL: 'a%00b', 'a control character': 'a%07b', 'a C1 control': 'a%C2%85b' };

let server: TestServer;
let anonymous: TestClient;
let owner: Awaited<ReturnType<typeof partner>>;
let admin: Awaited<ReturnType<typeof loggedIn>>;
let vacancyServiceId: string;

beforeAll(async () => {
  server = await startTestServer({}, (app) => {
    // Text that reaches the database unchecked (nothing in the request): the error handler's net.
    app.get('/api/v1/test-db-text/:kind', async (request) => {
      const { kind } = request.params as { kind: string };
      if (kind === 'text') await app.db.execute(sql`select ${'a\u0000b'}::text`);
      else await app.db.execute(sql`select ${JSON.stringify({ a: '\u0000' })}::jsonb`);
      return { ok: true };
    });
  });
  anonymous = new TestClient(server.url);
  await anonymous.init();
  owner = await partner(server);
  await server.database.db
    .update(services)
    .set({ status: 'approved' })
    .where(eq(services.id, owner.serviceId));
  vacancyServiceId = owner.serviceId;
  admin = await loggedIn(server, 'ADMIN', { isSuper: true });
});
afterAll(() => server?.close());

/** Rows of every table a refused request could have written to. */
async function counts() {
  const result = await server.database.db.execute(sql`
    select (select count(*) from accounts)::int as accounts,
           (select count(*) from services)::int as services,
           (select count(*) from vacancies)::int as vacancies,
           (select count(*) from reports)::int as reports,
           (select count(*) from campaigns)::int as campaigns,
           (select count(*) from push_subscriptions)::int as push
  `);
  return (result as unknown as { rows: unknown[] }).rows[0];
}

function expectRefused(res: TestResponse, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.errors.message).toBe('validation_failed');
  expect(res.body.errors.fields).toContainEqual({
    field,
    key: VALIDATION_KEYS.invalidCharacters,
    params: { name: field.split('.').pop() },
  });
}

/** A write, the client sending it and the field spoiled with `bad`. */
type Write = [string, () => TestClient, string, string, (bad: string) => unknown, string];
const WRITES: Write[] = [
  [
    'a report',
    () => anonymous,
    'POST',
    '/api/v1/reports',
    (bad) => ({ serviceId: owner.serviceId, reason: 'other', description: `Закрито ${bad}` }),
    'description',
  ],
  [
    'a registration (name)',
    () => anonymous,
    'POST',
    '/api/v1/auth/register',
    (bad) => {
      const body = registration();
      body.account.firstName = bad;
      return body;
    },
    'account.firstName',
  ],
  [
    'a registration (chosen address, stored as jsonb)',
    () => anonymous,
    'POST',
    '/api/v1/auth/register',
    (bad) => {
      const body = registration();
      body.service.addressDetails!.displayName = bad;
      return body;
    },
    'service.addressDetails.displayName',
  ],
  [
    'a new service',
    () => owner.client,
    'POST',
    '/api/v1/my/services',
    (bad) => ({ ...registration().service, name: bad }),
    'name',
  ],
  [
    'a new service (description)',
    () => owner.client,
    'POST',
    '/api/v1/my/services',
    (bad) => ({ ...registration().service, descriptionOther: `line\n\t${bad}` }),
    'descriptionOther',
  ],
  [
    'a vacancy',
    () => owner.client,
    'POST',
    '/api/v1/my/services/:service/vacancies',
    (bad) => ({ name: 'Перукар', salary: bad }),
    'salary',
  ],
  [
    'personal data',
    () => owner.client,
    'PUT',
    '/api/v1/auth/update',
    (bad) => ({ lastName: bad }),
    'lastName',
  ],
  [
    'a login',
    () => anonymous,
    'POST',
    '/api/v1/auth/login',
    (bad) => ({ email: 'someone@example.org', password: bad }),
    'password',
  ],
  [
    'a decline reason',
    () => admin.client,
    'POST',
    '/api/v1/admin/services/:service/decline',
    (bad) => ({ reason: `Немає\n${bad}` }),
    'reason',
  ],
  [
    'a campaign',
    () => admin.client,
    'POST',
    '/api/v1/admin/campaigns',
    (bad) => ({ subject: bad, content: 'Текст', sendToSelf: true }),
    'subject',
  ],
  [
    'a push subscription',
    () => owner.client,
    'POST',
    '/api/v1/auth/push-subscription',
    (bad) => ({ endpoint: `https://push.example.org/${bad}`, keys: { p256dh: 'k', auth: 'a' } }),
    'endpoint',
  ],
];

describe('writes refuse text the database cannot store', () => {
  describe.each(Object.entries(BAD))('%s', (_, bad) => {
    it.each(WRITES)('in %s: 400 on the field, nothing written', async (...write) => {
      const [, client, method, path, body, field] = write;
      const before = await counts();
      const res = await client().request(
        method,
        path.replace(':service', vacancyServiceId),
        body(bad),
      );
      expectRefused(res, field);
      expect(await counts()).toEqual(before);
    });
  });

  it('refuses a NUL in a JSON key (an unknown field) with a catalogue key', async () => {
    const before = await counts();
    const res = await anonymous.post('/api/v1/reports', {
      serviceId: owner.serviceId,
      reason: 'other',
      'description\u0000': 'x',
    });
    expect(res.status).toBe(400);
    expect(ERROR_KEYS).toContain(res.body.errors.message);
    expect(await counts()).toEqual(before);
  });

  it('stores real text as sent: emoji, Ukrainian, Hebrew and Arabic with marks, line breaks', async () => {
    const name = 'Перукарня «Їжачок» 💇‍♀️🇺🇦 \u2067שלום\u2069 مرحبا \u200F';
    const description = 'Рядок 1\n\tРядок 2 😀\r\nשורה 3';
    const res = await owner.client.post('/api/v1/my/services', {
      ...registration().service,
      name,
      descriptionUa: description,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await server.database.db
      .select({ name: services.name, descriptionUa: services.descriptionUa })
      .from(services)
      .where(eq(services.id, res.body.id));
    expect(row).toEqual({ name: name.trim(), descriptionUa: description });
  });
});

describe('reads refuse it in query strings, path parameters and cookies', () => {
  const READS: [string, string][] = [
    ['/api/v1/services?q=%s', 'q'],
    ['/api/v1/services?country=%s', 'country'],
    ['/api/v1/vacancies?q=%s', 'q'],
    ['/api/v1/map?bbox=10,40,20,50&zoom=5&q=%s', 'q'],
    ['/api/v1/geocode?address=%s', 'address'],
    ['/api/v1/unsubscribe?token=%s', 'token'],
  ];
  describe.each(Object.entries(BAD_IN_URL))('%s', (_, bad) => {
    it.each(READS)('GET %s: 400 on the field', async (url, field) => {
      expectRefused(await anonymous.get(url.replace('%s', bad)), field);
    });
    it('GET admin/services?q=: 400 on the field', async () => {
      expectRefused(await admin.client.get(`/api/v1/admin/services?q=abc${bad}`), 'q');
    });
    it('a query key of a route without a query schema', async () => {
      expectRefused(await anonymous.get(`/api/v1/auth/check?${bad}=1`), decodeURIComponent(bad));
    });
    it('a path parameter, on a route with a schema and on the site', async () => {
      const api = await anonymous.get(`/api/v1/services/${bad}`);
      expect(api.status).toBe(400);
      expect(ERROR_KEYS).toContain(api.body.errors.message);
      const res = await anonymous.get(`/widgets/${bad}.js`);
      expect(res.status).toBeLessThan(500);
      if (res.status === 400) expect(res.body.errors.message).toBe('validation_failed');
    });
    it('a cookie: the session cookie never reaches the session lookup', async () => {
      // A client of its own: TestClient sends its own cookies instead of a cookie header.
      const res = await new TestClient(server.url).get('/api/v1/auth/check', {
        headers: { cookie: `poruch_session=${bad}` },
      });
      expectRefused(res, 'cookie.poruch_session');
    });
  });

  describe('a site page keeps its query and cookies for the app', () => {
    let site: TestServer;
    let siteDir: string;
    beforeAll(async () => {
      siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-text-site-'));
      await fs.writeFile(path.join(siteDir, 'index.html'), '<!doctype html><title>Поруч</title>');
      site = await startTestServer({ NODE_ENV: 'production', SITE_DIR: siteDir });
    });
    afterAll(async () => {
      await site?.close();
      await fs.rm(siteDir, { recursive: true, force: true });
    });
    // The app resolves `back` in the browser: a 400 here left the visitor on an error page
    // instead of the login screen.
    it.each(Object.entries(BAD_IN_URL))(
      '%s: /login?back= and /?q= show the page',
      async (_, bad) => {
        for (const url of [`/login?back=/${bad}/evil.example`, `/?q=${bad}`]) {
          const res = await fetch(`${site.url}${url}`, { headers: { cookie: `x=${bad}` } });
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toContain('text/html');
        }
      },
    );
  });

  it('a lone surrogate cannot be written in a URL: its UTF-8 form is not decoded to one', async () => {
    for (const url of ['/api/v1/services?q=a%ED%A0%80b', '/api/v1/vacancies?q=%ED%B0%80']) {
      const res = await anonymous.get(url);
      expect(res.status, url).toBeLessThan(500);
    }
  });

  it('a control character in a header is refused by the HTTP parser with a catalogue key', async () => {
    const { port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.end('GET /api/v1/services HTTP/1.1\r\nHost: x\r\nX-Search: a\u0000b\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('"message":"bad_request"');
  });
});

describe('the last line: the database refusing text', () => {
  it.each(['text', 'jsonb'])(
    'a NUL reaching a %s value is a 400 with a key, not a 500',
    async (kind) => {
      const res = await anonymous.get(`/api/v1/test-db-text/${kind}`);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors.message).toBe('validation_failed');
      expect(res.body.error.message).toBe(VALIDATION_KEYS.invalidCharacters);
    },
  );
});

describe('every route', () => {
  it('takes no string that text() did not build (params, query, body)', () => {
    const unchecked = server.app.routeTable.flatMap((route) => {
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      return ['params', 'querystring', 'body'].flatMap((part) => {
        const s = schema[part] as { _zod?: unknown } | undefined;
        if (!s || typeof s !== 'object' || !('_zod' in s)) return [];
        return uncheckedTexts(s as never).map(
          (p) => `${[route.method].flat().join(',')} ${route.url} ${part}: ${p}`,
        );
      });
    });
    expect(unchecked).toEqual([]);
  });
});
