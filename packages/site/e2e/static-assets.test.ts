import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '@poruch/server/testing';
import { REPO_ROOT, startServer, type RunningServer } from './fixtures/index.js';

/**
 * The built site and widgets as shipped: every asset has its brotli and gzip copies, and the
 * built server sends them with the right caching (docs/architecture.md "Static assets and
 * caching"). Needs `pnpm build`.
 */

const SITE = path.join(REPO_ROOT, 'packages/site/dist');
const WIDGETS = path.join(REPO_ROOT, 'packages/widgets/dist/cdn');
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );

describe('precompressed build output', () => {
  const cases = [
    {
      name: 'site assets',
      files: () => walk(path.join(SITE, 'assets')).filter((f) => TEXT.test(f)),
    },
    {
      name: 'widgets script-tag build',
      files: () => walk(WIDGETS).filter((f) => !/\.(br|gz)$/.test(f)),
    },
  ];
  for (const { name, files } of cases) {
    it(`${name}: every file has a .br and a .gz copy of the same bytes`, () => {
      const list = files();
      expect(list.length, `${name} is not built: run pnpm build`).toBeGreaterThan(5);
      const missing: string[] = [];
      for (const file of list) {
        const body = readFileSync(file);
        try {
          expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(body), file).toBe(true);
          expect(gunzipSync(readFileSync(`${file}.gz`)).equals(body), file).toBe(true);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          missing.push(path.relative(REPO_ROOT, file));
        }
      }
      expect(missing).toEqual([]);
    });
  }
});

describe('the built server: caching of static files', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { TILE_URL: 'none', SEED_DEMO: 'false' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends the prerendered home with an ETag, and 304 when it is unchanged', async () => {
    const home = await rawGet(`${server.baseUrl}/`, { 'accept-encoding': 'br' });
    expect(home.status).toBe(200);
    expect(home.headers['content-encoding']).toBe('br');
    expect(home.headers.vary).toMatch(/accept-encoding/i);
    expect(home.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(home.body).toString();
    // The first screen is in the HTML (inert until the app replaces it), with its chunks preloaded.
    expect(html).toContain('<div inert="" class="app-prerendered" data-prerendered-route="home">');
    expect(html).toContain('class="hero__title"');
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/home-[\w-]+\.js">/);
    const again = await rawGet(`${server.baseUrl}/`, { 'if-none-match': home.headers.etag! });
    expect(again.status).toBe(304);

    const profile = await rawGet(`${server.baseUrl}/services/anything`);
    expect(profile.body.toString()).toContain('data-prerendered-route="profile"');
    expect(profile.body.toString()).toMatch(/modulepreload[^>]+\/assets\/profile-[\w-]+\.js/);
    // A page in English preloads the English translations beside the entry (the app reads them
    // before its first render); the Ukrainian page does not.
    const englishChunk = /modulepreload[^>]+\/assets\/en_GB-[\w-]+\.js/;
    for (const path of ['/', '/services/anything']) {
      const english = await rawGet(`${server.baseUrl}${path}?lang=en_GB`);
      expect(english.body.toString(), path).toMatch(englishChunk);
      const ukrainian = await rawGet(`${server.baseUrl}${path}?lang=ua`);
      expect(ukrainian.body.toString(), path).not.toMatch(englishChunk);
    }
  });

  it('serves the hashed entry chunk immutable and brotli-encoded', async () => {
    const index = readFileSync(path.join(SITE, 'index.html'), 'utf8');
    const entry = index.match(/src="(\/assets\/index-[\w-]+\.js)"/)?.[1];
    expect(entry).toBeTruthy();
    const res = await rawGet(`${server.baseUrl}${entry}`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.body).equals(readFileSync(path.join(SITE, entry!)))).toBe(true);
  });

  it('widgets: the moving loader revalidates, its hashed chunks are immutable', async () => {
    const loader = await rawGet(`${server.baseUrl}/widgets/v0/poruch.js`, {
      'accept-encoding': 'gzip',
    });
    expect(loader.status).toBe(200);
    expect(loader.headers['content-encoding']).toBe('gzip');
    expect(loader.headers['cache-control']).toMatch(/^public, max-age=300\b/);
    const text = gunzipSync(loader.body).toString();
    expect(
      (
        await rawGet(`${server.baseUrl}/widgets/v0/poruch.js`, {
          'if-none-match': loader.headers.etag!,
        })
      ).status,
    ).toBe(304);
    const chunk = text.match(/import\("\.\/([\w/-]+-[\w-]{8}\.js)"\)/)?.[1];
    expect(chunk, 'the loader imports a hashed chunk').toBeTruthy();
    const res = await rawGet(`${server.baseUrl}/widgets/v0/${chunk}`, { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
  });
});
