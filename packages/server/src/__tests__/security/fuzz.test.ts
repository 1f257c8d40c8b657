import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ERROR_KEYS, VALIDATION_KEYS } from '@poruch/core';
import { forbiddenTextAt } from '../../plugins/textInput.js';
import { TestClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  HUGE,
  arbitraryOf,
  jsonSchemaOf,
  junk,
  oddCharacter,
  smallJunk,
  textUnit,
  withOddText,
} from './arbitraries.js';
import { MATRIX } from './authz-matrix.js';
import { seedWorld, type World } from './world.js';

/**
 * Property-based requests for every route of the route table, derived from its zod schemas
 * (params, query, body; text with U+0000, lone surrogates, C0/C1 and bidirectional controls and
 * strings past every length, see arbitraries.ts; now and then an odd cookie) and sent over HTTP
 * as an actor the route lets in (session and anti-forgery token), so they get past authorisation
 * into validation and the handlers. Properties: never a
 * 5xx, and every 4xx body carries a catalogue key (errors.message in ERROR_KEYS, every field error
 * a validation key); after the run, no table holds a control character. On PGlite and, in the
 * server-pg project, on PostgreSQL. FUZZ_RUNS (default 10,000 requests in all) and FUZZ_SEED (fixed by default,
 * so CI is repeatable) run more or other cases: `FUZZ_RUNS=100000 FUZZ_SEED=$RANDOM pnpm …`.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Only the routes whose `METHOD url` matches (replaying one failure). */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
/** Routes fuzzed at the same time (each route's requests run one after another). */
const CONCURRENCY = 4;
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789abcdef';

/** Routes that hash or verify a password when their input is valid. */
const SCRYPT_ROUTES = new Set([
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/register',
  'PUT /api/v1/auth/credentials',
  'DELETE /api/v1/account',
  'POST /api/v1/admin/administrators',
]);

const CATALOGUE = new Set<string>(ERROR_KEYS);
const VALIDATION = new Set<string>(Object.values(VALIDATION_KEYS));

let server: TestServer;
let owner: World;
let superAdmin: World;
let csrfCookies = '';
let csrfToken = '';

beforeAll(async () => {
  server = await startTestServer({
    MAIL_WORKER: 'false',
    // Every request comes from its own address, so per-IP rate limits do not hide the handlers.
    TRUST_PROXY: 'true',
    BODY_LIMIT: '65536',
    METRICS_TOKEN,
  });
  owner = await seedWorld(server, 'owner');
  superAdmin = await seedWorld(server, 'superAdmin');
  const browser = new TestClient(server.url);
  await browser.init();
  csrfCookies = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  csrfToken = decodeURIComponent(browser.cookies.get('XSRF-TOKEN')!);
});
afterAll(() => server?.close());

/** The actor a route is fuzzed as: the least privileged one it lets in. */
function actorOf(key: string): World | null {
  const cells = MATRIX[key]?.cells;
  if (!cells || cells.visitor === 'allow') return null;
  if (cells.owner === 'allow') return owner;
  if (cells.superAdmin === 'allow') return superAdmin;
  return null;
}

/** encodeURIComponent, with lone surrogates (which it refuses) replaced as a browser would. */
const encode = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
};

/** Query values as a browser would send them (arrays repeat the key). */
function serializeQuery(value: unknown): string {
  if (value === undefined) return '';
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) {
        params.append(
          k,
          item !== null && typeof item === 'object' ? JSON.stringify(item) : String(item),
        );
      }
    }
    const text = params.toString();
    return text ? `?${text}` : '';
  }
  return `?${encode(typeof value === 'object' ? JSON.stringify(value) : String(value))}`;
}

const RAW_QUERIES = [
  '?%',
  '?a=%zz',
  '?q=%E0%A4%A',
  '?a[b][c]=1',
  '?&&&=&=',
  `?${'q=x&'.repeat(3000)}`,
  '?__proto__[isAdmin]=1',
  '?constructor[prototype][isAdmin]=1',
  '?page=1&page=2&pageSize=1e3',
  `?q=${'%F0%9F%98%80'.repeat(2000)}`,
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json;;',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/octet-stream',
];

const RAW_BODIES = [
  '',
  'null',
  '[]',
  '"string"',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  `{"a":${'['.repeat(5000)}`,
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  JSON.stringify({ x: 'x'.repeat(70_000) }),
  '\uFEFF{}',
  '{"email":"a@example.org","email":{"$gt":""}}',
  '{"email":{"$ne":null},"password":{"$ne":null}}',
];

interface FuzzRequest {
  path: string;
  query: string;
  body?: { payload: string; contentType?: string };
  ip: string;
  /** A cookie sent besides the session and anti-forgery ones. */
  cookie: string | null;
}

/** Cookies with what no text may hold (percent-encoded, as cookie values are decoded). */
const ODD_COOKIES = [
  'theme=%00',
  'theme=a%07b',
  'theme=%C2%85',
  'theme=%ED%A0%80',
  'a%00b=1',
  `theme=${'x'.repeat(3000)}`,
];

function paramArbitrary(name: string, key: string): fc.Arbitrary<string> {
  const real = [owner, superAdmin].flatMap((w) => [
    w.serviceId,
    w.vacancyId,
    w.reportId,
    w.campaignId,
  ]);
  const valid: fc.Arbitrary<string> =
    name === 'id'
      ? fc.constantFrom(...real)
      : name === 'page'
        ? fc.nat({ max: 3 }).map(String)
        : name === 'version'
          ? fc.constantFrom('v0', '0.1.0', 'v1')
          : key.includes('/api/docs')
            ? // Small files: the 1.6 MB bundle would only measure copying.
              fc.constantFrom(
                'index.css',
                'index.html',
                'favicon-16x16.png',
                'oauth2-redirect.html',
              )
            : fc.constantFrom('manifest.json', 'nothing.js');
  const odd = fc.oneof(
    fc.uuid(),
    fc.constantFrom('..', '../..', 'a/../../b', '%2e%2e%2f', '.env', 'x'.repeat(3000), '-1', '1e9'),
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
    fc.constantFrom('\u0000', '🇺🇦', '<script>', "' OR 1=1--", '%', '%zz'),
    oddCharacter,
    fc.string({ unit: textUnit, minLength: 1, maxLength: 12 }),
  );
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 4, arbitrary: odd });
}

function bodyArbitrary(route: RouteOptions): fc.Arbitrary<FuzzRequest['body']> {
  const js = jsonSchemaOf((route.schema as { body?: unknown } | undefined)?.body);
  const value: fc.Arbitrary<unknown> = js
    ? fc.oneof(
        { weight: 3, arbitrary: arbitraryOf(js, { mixed: false }) },
        { weight: 2, arbitrary: withOddText(arbitraryOf(js, { mixed: false })) },
        { weight: 5, arbitrary: arbitraryOf(js, { mixed: true }) },
        { weight: 1, arbitrary: junk },
      )
    : fc.oneof(fc.constant(undefined), junk);
  const json = (v: unknown) => JSON.stringify(v ?? null);
  return fc.oneof(
    {
      weight: 8,
      arbitrary: value.map((v) =>
        v === undefined ? undefined : { payload: json(v), contentType: 'application/json' },
      ),
    },
    {
      // Malformed JSON: a valid body cut short, with a stray tail.
      weight: 1,
      arbitrary: fc
        .tuple(value, fc.nat(), fc.constantFrom('', '}', ',', '"', '\u0000', 'garbage', ']'))
        .map(([v, n, tail]) => {
          const text = json(v);
          return {
            payload: text.slice(0, n % (text.length + 1)) + tail,
            contentType: 'application/json',
          };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, fc.constantFrom(...CONTENT_TYPES))
        .map(([v, contentType]) => ({ payload: typeof v === 'string' ? v : json(v), contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...RAW_BODIES, ...HUGE.map((h) => JSON.stringify(h)))
        .map((payload) => ({ payload, contentType: 'application/json' })),
    },
  );
}

function requestArbitrary(
  key: string,
  route: RouteOptions,
  method: string,
): fc.Arbitrary<FuzzRequest> {
  const url = route.url!;
  const names = [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  if (url.endsWith('*')) names.push('*');
  const params = fc.tuple(...names.map((name) => paramArbitrary(name, key)), fc.boolean());
  const path = params.map((tuple) => {
    // Generated values are fast-check's: read, never mutate.
    const raw = tuple[tuple.length - 1] as boolean;
    const values = tuple.slice(0, -1) as string[];
    let i = 0;
    // Encoded as a client would, or raw (only the characters that would change the route).
    const fill = (v: string) => (raw ? v.replace(/[/?#]/g, encodeURIComponent) : encode(v));
    const filled = url.replace(/:([A-Za-z_]+)/g, () => fill(values[i++]!));
    if (url === '*') return `/api/v1/${fill(values[i]!)}`;
    // A wildcard takes a path: slashes stay.
    if (url.endsWith('*')) return filled.slice(0, -1) + values[i]!.replace(/[?#]/g, encode);
    return filled;
  });
  const js = jsonSchemaOf((route.schema as { querystring?: unknown } | undefined)?.querystring);
  const queryValue = js
    ? fc.oneof(
        { weight: 3, arbitrary: arbitraryOf(js, { mixed: false, junk: smallJunk }) },
        {
          weight: 2,
          arbitrary: withOddText(arbitraryOf(js, { mixed: false, junk: smallJunk })),
        },
        { weight: 5, arbitrary: arbitraryOf(js, { mixed: true, junk: smallJunk }) },
      )
    : fc.oneof(
        fc.constant(undefined),
        fc.dictionary(fc.string({ unit: textUnit, maxLength: 8 }), smallJunk, { maxKeys: 3 }),
      );
  const query = fc.oneof(
    { weight: 9, arbitrary: queryValue.map(serializeQuery) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
  const body =
    method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
      ? fc.constant(undefined)
      : bodyArbitrary(route);
  const cookie = fc.option(fc.constantFrom(...ODD_COOKIES), { freq: 20 });
  return fc.record({ path, query, body, ip: fc.ipV4(), cookie });
}

let sent = 0;
const statuses = new Map<number, number>();

async function send(method: string, actor: World | null, request: FuzzRequest) {
  const cookies = [csrfCookies, actor?.sessionToken && `poruch_session=${actor.sessionToken}`];
  const headers: Record<string, string> = {
    cookie: [...cookies, request.cookie].filter(Boolean).join('; '),
    'x-xsrf-token': csrfToken,
    'x-forwarded-for': request.ip,
  };
  if (method === 'OPTIONS') {
    headers.origin = 'https://elsewhere.example.com';
    headers['access-control-request-method'] = 'POST';
  }
  if (request.body?.contentType) headers['content-type'] = request.body.contentType;
  const target = `${server.url}${request.path}${request.query}`;
  // Redirects are answers too (3xx): not followed.
  const res = await fetch(target, {
    method,
    headers,
    body: request.body?.payload,
    redirect: 'manual',
  });
  const text = await res.text();
  sent++;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const where = `${method} ${request.path.slice(0, 120)}${request.query.slice(0, 120)} → ${res.status} ${text.slice(0, 300)}`;
  if (res.status >= 500) throw new Error(`server error: ${where}`);
  if (res.status >= 400) {
    let body: { errors?: { message?: string; fields?: { key?: string }[] } } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`4xx without a JSON error body: ${where}`);
    }
    if (!CATALOGUE.has(body?.errors?.message ?? ''))
      throw new Error(`4xx without a catalogue key: ${where}`);
    for (const field of body?.errors?.fields ?? []) {
      if (!VALIDATION.has(field.key ?? ''))
        throw new Error(`field error without a validation key: ${where}`);
    }
  }
}

/** A stable number per route, so adding a route does not change the others' cases. */
const hashOf = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 0);

describe('fuzzing every route from its schemas', () => {
  it(
    `sends ${RUNS} requests: never a 5xx, every 4xx with a catalogue key`,
    async () => {
      const routes = server.app.routeTable.flatMap((route) =>
        [route.method]
          .flat()
          // HEAD runs the GET handler; its answer has no body to check.
          .filter((m) => m !== 'HEAD')
          .filter((m) => !ONLY || ONLY.test(`${m} ${route.url}`))
          .map((method) => ({ key: `${method} ${route.url}`, method, route })),
      );
      // Routes whose valid requests run scrypt (about 0.1 to 1 s of CPU each, by design) get a
      // quarter of the share; the others make up the total.
      const weightOf = (key: string) => (SCRYPT_ROUTES.has(key) ? 0.25 : 1);
      const totalWeight = routes.reduce((sum, r) => sum + weightOf(r.key), 0);
      const runsOf = (key: string) => Math.ceil((RUNS * weightOf(key)) / totalWeight);
      const started = Date.now();
      const failures: string[] = [];
      const timings: [string, number][] = [];
      const queue = [...routes];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const { key, method, route } = next;
            const actor = actorOf(key);
            const routeStarted = Date.now();
            try {
              await fc.assert(
                fc.asyncProperty(requestArbitrary(key, route, method), (r) =>
                  send(method, actor, r),
                ),
                { numRuns: runsOf(key), seed: SEED ^ hashOf(key), endOnFailure: true },
              );
            } catch (error) {
              // The seed line (to replay) and the request that broke the property.
              const message = (error as Error).message;
              const replay = /\{ seed: [^}]*\}/.exec(message)?.[0] ?? '';
              const cause =
                ((error as Error).cause as Error | undefined)?.message ??
                (error as Error).stack?.slice(0, 1500) ??
                message;
              failures.push(`${key} ${replay}: ${cause}`);
            }
            timings.push([key, Date.now() - routeStarted]);
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `[fuzz] seed=${SEED} routes=${routes.length} requests=${sent} in ${seconds.toFixed(1)} s ` +
          `(${Math.round(sent / seconds)}/s); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
      );
      const slowest = timings.sort((a, b) => b[1] - a[1]).slice(0, 6);
      console.log(
        `[fuzz] slowest routes (ms): ${slowest.map(([k, ms]) => `${k} ${ms}`).join(', ')}`,
      );
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThanOrEqual(RUNS);
      // Ten minutes for the CI size, more for the long runs of `pnpm bench fuzz`.
    },
    Math.max(600_000, RUNS * 60),
  );

  it('stored no text that no field may hold (every column of every table, after the run)', async () => {
    const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
    const db = server.database.db;
    const tables = rowsOf(
      await db.execute(sql`
        SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`),
    );
    const found: string[] = [];
    for (const { name } of tables) {
      const rows = rowsOf(await db.execute(sql`SELECT * FROM ${sql.identifier(String(name))}`));
      rows.forEach((row, i) => {
        const at = forbiddenTextAt(row);
        if (at !== null) found.push(`${String(name)}[${i}].${at}: ${JSON.stringify(row)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
