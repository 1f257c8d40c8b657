import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetsPlugin } from '../plugins/widgets.js';
import { writeCompressed, writeWidgetsBuild } from './helpers/builds.js';
import { rawGet } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const JS = `export const answer = ${'"precompressed ".repeat(200) + '.repeat(5)}42;\n`;

describe('the built site: caching and precompressed files', () => {
  let server: TestServer;
  let siteDir: string;

  beforeAll(async () => {
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-static-'));
    await fs.writeFile(
      path.join(siteDir, 'index.html'),
      '<!doctype html><title>shell</title><div id="root"></div>',
    );
    await writeCompressed(path.join(siteDir, 'assets', 'index-AbCd1234.js'), JS);
    await fs.writeFile(path.join(siteDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await fs.mkdir(path.join(siteDir, 'pages'));
    // Long enough that compression pays, and different per route.
    const page = (name: string) =>
      `<!doctype html><title>${name}</title><div id="root"><main data-route="${name}">${'<p>Поруч</p>'.repeat(300)}</main></div>`;
    await fs.writeFile(path.join(siteDir, 'pages', 'home.html'), page('home'));
    await fs.writeFile(path.join(siteDir, 'pages', 'profile.html'), page('profile'));
    await fs.writeFile(
      path.join(siteDir, 'pages', 'routes.json'),
      JSON.stringify([
        { name: 'home', path: '/', file: 'pages/home.html' },
        { name: 'profile', path: '/services/:id/:tab?', file: 'pages/profile.html' },
      ]),
    );
    server = await startTestServer({ NODE_ENV: 'production', SITE_DIR: siteDir });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(siteDir, { recursive: true, force: true });
  });

  it('counts no file of the site among the GET routes without a cache policy (they set their own)', () => {
    expect(server.app.uncachedGetRoutes).toEqual([]);
  });

  it('serves a content-hashed asset as immutable for a year', async () => {
    const res = await rawGet(`${server.url}/assets/index-AbCd1234.js`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.toString()).toBe(JS);
    // Unhashed files revalidate every time.
    expect((await rawGet(`${server.url}/sw.js`)).headers['cache-control']).toBe('no-cache');
  });

  it('sends the brotli or gzip copy by Accept-Encoding, with Vary', async () => {
    const br = await rawGet(`${server.url}/assets/index-AbCd1234.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.body).toString()).toBe(JS);

    const gz = await rawGet(`${server.url}/assets/index-AbCd1234.js`, {
      'accept-encoding': 'gzip',
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(gunzipSync(gz.body).toString()).toBe(JS);

    const plain = await rawGet(`${server.url}/assets/index-AbCd1234.js`, {
      'accept-encoding': 'identity',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(plain.body.toString()).toBe(JS);
  });

  it('answers each route with its prerendered page, an ETag and 304 when unchanged', async () => {
    const home = await rawGet(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.body.toString()).toContain('data-route="home"');
    expect(home.headers['cache-control']).toBe('no-cache');
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    const etag = home.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/);

    const again = await rawGet(`${server.url}/`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await rawGet(`${server.url}/`, { 'if-none-match': '"stale"' })).status).toBe(200);

    const profile = await rawGet(`${server.url}/services/42/contacts?x=1`);
    expect(profile.body.toString()).toContain('data-route="profile"');
    expect(profile.headers.etag).not.toBe(etag);
    // A path no route knows gets index.html (the app sends the visitor home).
    // A missing asset is a 404, not a page (a module script would fail on the HTML's MIME type).
    for (const missing of ['/assets/index-Gone1234.js', '/gone.css', '/flags/4x3/zz.svg']) {
      const res = await rawGet(`${server.url}${missing}`);
      expect(res.status, missing).toBe(404);
      expect(res.headers['content-type'], missing).not.toMatch(/html/);
    }
    const unknown = await rawGet(`${server.url}/no/such/page`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.toString()).toContain('<title>shell</title>');
  });

  it('compresses the pages too, with the same validator', async () => {
    const plain = await rawGet(`${server.url}/services/7`);
    const br = await rawGet(`${server.url}/services/7`, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    const gz = await rawGet(`${server.url}/services/7`, { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(
      (await rawGet(`${server.url}/services/7`, { 'if-none-match': br.headers.etag! })).status,
    ).toBe(304);
  });
});

describe('the widgets build: caching and precompressed files', () => {
  let app: FastifyInstance;
  let url: string;
  let dir: string;
  const loader = `import("./chunks/runtime-Xy_9abcd.js");${' '.repeat(2000)}`;
  const chunk = JS;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-widgets-'));
    await writeWidgetsBuild(dir, {
      version: '9.8.7',
      major: 'v9',
      files: { 'poruch.js': loader, 'chunks/runtime-Xy_9abcd.js': chunk },
    });
    app = Fastify();
    await app.register(widgetsPlugin, { dir });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('serves hashed chunks as immutable under the moving major and the exact version', async () => {
    for (const prefix of ['v9', '9.8.7']) {
      const res = await rawGet(`${url}/widgets/${prefix}/chunks/runtime-Xy_9abcd.js`);
      expect(res.status, prefix).toBe(200);
      expect(res.headers['cache-control'], prefix).toBe('public, max-age=31536000, immutable');
      expect(res.body.toString()).toBe(chunk);
    }
  });

  it('gives the moving loader a short cache, an ETag and 304 when unchanged', async () => {
    const res = await rawGet(`${url}/widgets/v9/poruch.js`);
    expect(res.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    const etag = res.headers.etag!;
    expect(etag).toMatch(/^W\/"sha384-/);
    const again = await rawGet(`${url}/widgets/v9/poruch.js`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The strong form of the same tag matches too; another build's tag does not.
    const strong = await rawGet(`${url}/widgets/v9/poruch.js`, {
      'if-none-match': etag.replace(/^W\//, ''),
    });
    expect(strong.status).toBe(304);
    expect((await rawGet(`${url}/widgets/v9/poruch.js`, { 'if-none-match': 'W/"x"' })).status).toBe(
      200,
    );
    // The exact version's loader is pinned, so immutable.
    expect((await rawGet(`${url}/widgets/9.8.7/poruch.js`)).headers['cache-control']).toContain(
      'immutable',
    );
    // manifest.json (unhashed, no SRI of its own) revalidates as well.
    const manifest = await rawGet(`${url}/widgets/v9/manifest.json`);
    expect(manifest.headers.etag).toMatch(/^W\/"sha384-/);
    expect(
      (await rawGet(`${url}/widgets/v9/manifest.json`, { 'if-none-match': manifest.headers.etag! }))
        .status,
    ).toBe(304);
  });

  it('sends the precompressed copy by Accept-Encoding, with Vary, CORS intact', async () => {
    const br = await rawGet(`${url}/widgets/v9/chunks/runtime-Xy_9abcd.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['access-control-allow-origin']).toBe('*');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(brotliDecompressSync(br.body).toString()).toBe(chunk);

    const gz = await rawGet(`${url}/widgets/v9/poruch.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(loader);

    const plain = await rawGet(`${url}/widgets/v9/poruch.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(loader);
  });
});
