import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAnswer } from '../plugins/security.js';
import { loggedIn, partner } from './helpers/actors.js';
import { writeCompressed, writeWidgetsBuild } from './helpers/builds.js';
import { TestClient } from './helpers/client.js';
import { rawGet, type RawResponse } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * No answer a shared cache may keep carries Set-Cookie: a CDN or nginx would hand the same
 * anti-forgery pair (or any cookie) to every visitor. The anti-forgery pair is handed out only on
 * private or no-store answers, and the site still gets a working token (auth/check).
 */

let server: TestServer;
let serviceId: string;
const dirs: string[] = [];
const WIDGETS = { version: '9.8.7', major: 'v9' };
const LONG = (s: string) => s.repeat(400);

/** Every kind of file the site's build writes (packages/site/dist), under names of its kind. */
const SITE_FILES: Record<string, string> = {
  'index.html': '<!doctype html><title>shell</title><div id="root"></div>',
  'pages/home.html': `<!doctype html><title>home</title><main>${LONG('<p>Поруч</p>')}</main>`,
  'pages/profile.html': '<!doctype html><title>profile</title><main></main>',
  'assets/index-AbCd1234.js': LONG('export const a = 1;\n'),
  'assets/index-AbCd1234.css': LONG('body{margin:0}\n'),
  'assets/inter-latin-AbCd1234.woff2': 'wOF2 font bytes',
  'flags/4x3/fr.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'icons/icon-192.png': '\x89PNG icon',
  'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'manifest.webmanifest': '{"name":"Поруч"}',
  'sw.js': 'self.addEventListener("fetch", () => {});',
};

beforeAll(async () => {
  const siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-cookies-site-'));
  const widgetsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-cookies-widgets-'));
  dirs.push(siteDir, widgetsDir);
  for (const [name, body] of Object.entries(SITE_FILES)) {
    await writeCompressed(path.join(siteDir, name), body);
  }
  await fs.writeFile(
    path.join(siteDir, 'pages', 'routes.json'),
    JSON.stringify([
      { name: 'home', path: '/', file: 'pages/home.html' },
      { name: 'profile', path: '/services/:id/:tab?', file: 'pages/profile.html' },
    ]),
  );
  await writeWidgetsBuild(widgetsDir, {
    ...WIDGETS,
    files: {
      'poruch.js': LONG('import("./chunks/runtime-Xy_9abcd.js");'),
      'chunks/runtime-Xy_9abcd.js': LONG('export const r = 1;\n'),
    },
  });
  server = await startTestServer(
    { NODE_ENV: 'production', SITE_DIR: siteDir, MAIL_WORKER: 'false' },
    undefined,
    { widgetsDir },
  );
  const owner = await partner(server);
  serviceId = owner.serviceId;
  const admin = (await loggedIn(server, 'ADMIN')).client;
  expect((await admin.post(`/api/v1/admin/services/${serviceId}/approve`)).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** Every file of the site build, every widgets file under both prefixes, every public GET. */
const cacheablePaths = () => [
  ...Object.keys(SITE_FILES)
    .filter((name) => !name.startsWith('pages/') && name !== 'index.html')
    .map((name) => `/${name}`),
  // Pages: prerendered routes, a profile, a path no route knows (index.html).
  '/',
  `/services/${serviceId}`,
  '/services/not-an-id/contacts',
  '/no/such/page',
  ...['poruch.js', 'chunks/runtime-Xy_9abcd.js', 'manifest.json'].flatMap((name) => [
    `/widgets/${WIDGETS.version}/${name}`,
    `/widgets/${WIDGETS.major}/${name}`,
  ]),
  '/api/v1/services',
  '/api/v1/services?q=%D0%BA%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0',
  `/api/v1/services/${serviceId}`,
  '/api/v1/vacancies',
  '/api/v1/map?bbox=-180,-85,180,85&zoom=2',
  '/api/v1/geocode?address=Warszawa&country=PL',
  '/env',
  '/robots.txt',
  '/sitemap.xml',
  '/sitemap-pages.xml',
  '/sitemap-services-0.xml',
  '/api/docs/json',
  '/api/docs/static/index.css',
];

/** The request variants a browser or a cache sends for one path, given its first answer. */
function variants(first: RawResponse): [string, Record<string, string>][] {
  const list: [string, Record<string, string>][] = [
    ['br', { 'accept-encoding': 'br, gzip' }],
    ['gzip', { 'accept-encoding': 'gzip' }],
    // A browser with some other cookie but no anti-forgery pair yet.
    ['other cookie', { cookie: 'poruch_consent=1' }],
  ];
  if (first.headers.etag) list.push(['If-None-Match', { 'if-none-match': first.headers.etag }]);
  if (first.headers['last-modified']) {
    list.push(['If-Modified-Since', { 'if-modified-since': first.headers['last-modified'] }]);
  }
  return list;
}

describe('cookies never go out on answers a shared cache may keep', () => {
  it('no Set-Cookie on any static file, page, widget file or public API GET, nor their 304s', async () => {
    const failures: string[] = [];
    let notModified = 0;
    for (const p of cacheablePaths()) {
      const first = await rawGet(`${server.url}${p}`);
      expect(first.status, p).toBe(200);
      const answers: [string, RawResponse][] = [['plain', first]];
      for (const [label, headers] of variants(first)) {
        answers.push([label, await rawGet(`${server.url}${p}`, headers)]);
      }
      for (const [label, res] of answers) {
        if (res.status === 304) notModified++;
        if (res.headers['set-cookie']) {
          failures.push(
            `${p} (${label}, ${res.status}, ${res.headers['cache-control']}): ` +
              `${res.headers['set-cookie'].join(' | ')}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    // The walk reached the conditional answers too.
    expect(notModified).toBeGreaterThan(20);
  });

  it('the reported examples: an immutable asset and a flag', async () => {
    for (const p of ['/assets/index-AbCd1234.js', '/flags/4x3/fr.svg']) {
      const res = await rawGet(`${server.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers['cache-control'], p).not.toMatch(/private|no-store/);
      expect(res.headers['set-cookie'], p).toBeUndefined();
    }
  });

  it('every file answers a widget on any origin without credentials (CORS *, no cookie)', async () => {
    // A widget on another site asks for the Poruch site's files (flags, icons, chunks, the
    // loader, the manifest) as CORS requests without credentials (`<img crossorigin>`, module
    // scripts): each must allow any origin, without credentials, and set no cookie, also for a
    // browser holding a session cookie.
    const files = cacheablePaths().filter((p) => /\.[a-z0-9]+$/.test(p) && !p.startsWith('/api/'));
    expect(files).toEqual(expect.arrayContaining(['/flags/4x3/fr.svg', '/icon.svg']));
    const failures: string[] = [];
    for (const p of files) {
      const res = await rawGet(`${server.url}${p}`, {
        origin: 'https://host.example',
        cookie: 'poruch_session=abc; poruch_consent=1',
        'sec-fetch-mode': 'cors',
      });
      const h = res.headers;
      if (
        res.status !== 200 ||
        h['access-control-allow-origin'] !== '*' ||
        h['access-control-allow-credentials'] !== undefined ||
        h['set-cookie'] !== undefined
      ) {
        failures.push(
          `${p}: ${res.status}, allow-origin ${h['access-control-allow-origin']}, ` +
            `credentials ${h['access-control-allow-credentials']}, set-cookie ${h['set-cookie']}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('any answer that sets a cookie is private or no-store (reads, refusals, writes)', async () => {
    const client = new TestClient(server.url);
    const answers: [string, Headers][] = [];
    const record = async (label: string, res: Promise<{ headers: Headers }>) => {
      answers.push([label, (await res).headers]);
    };
    await record('auth/check', client.get('/api/v1/auth/check'));
    await record('healthz', new TestClient(server.url).get('/healthz'));
    await record('unsubscribe GET', new TestClient(server.url).get('/api/v1/unsubscribe?token=x'));
    await record('bad search', new TestClient(server.url).get('/api/v1/services?page=-1'));
    await record('unknown API path', new TestClient(server.url).get('/api/v1/nothing'));
    await record(
      'login refused',
      client.post('/api/v1/auth/login', { email: 'nobody@example.org', password: 'wrong pass' }),
    );
    let cookies = 0;
    for (const [label, headers] of answers) {
      if (!headers.getSetCookie().length) continue;
      cookies++;
      expect(isPrivateAnswer(headers.get('cache-control')), label).toBe(true);
    }
    expect(cookies).toBeGreaterThan(0);
  });
});

describe('the site still gets a working anti-forgery token', () => {
  it('the page sets nothing; auth/check (private, no-store) hands out the pair; login with it works', async () => {
    const { email } = await loggedIn(server, 'PARTNER');
    const browser = new TestClient(server.url);
    await browser.get('/login');
    expect(browser.cookies.size).toBe(0);
    const check = await browser.get('/api/v1/auth/check');
    expect(check.headers.get('cache-control')).toBe('private, no-store');
    expect([...browser.cookies.keys()].sort()).toEqual(['XSRF-TOKEN', '_csrf']);
    expect(browser.setCookieLine('_csrf')).toMatch(/HttpOnly/i);
    expect(browser.setCookieLine('XSRF-TOKEN')).not.toMatch(/HttpOnly/i);
    // loggedIn's accounts share one password (helpers/actors.ts).
    const login = await browser.post('/api/v1/auth/login', {
      email,
      password: 'test password 123',
    });
    expect(login.status).toBe(200);
    // A browser that has the pair is not given another one.
    await browser.get('/api/v1/auth/check');
    expect(browser.setCookieLine('XSRF-TOKEN')).toBeUndefined();
  });
});
