import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedIn, partner } from './helpers/actors.js';
import { rawGet } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * English visitors: a page is served in the visitor's language (`?lang=`, else the `locale`
 * cookie, else Accept-Language, else Ukrainian) with `Vary: Accept-Language, Cookie`; a route's
 * page and a profile's first screen name their language versions (hreflang), the profile carries
 * its JSON-LD in the page's language, and the sitemap lists every page in both languages.
 */

/** A GET over node:http with a brotli body decoded. */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await rawGet(url, headers);
  const br = res.headers['content-encoding'] === 'br';
  return { ...res, body: (br ? brotliDecompressSync(res.body) : res.body).toString() };
}

const page = (name: string, lang: string) =>
  `<!doctype html><html lang="${lang}"><head><title>${name}</title></head><body><div id="root">` +
  `<div inert="" class="app-prerendered"><main id="main"><div class="page-loading" role="status">` +
  `<span>${name} ${lang}</span></div></main></div></div></body></html>`;
const PUBLIC_URL = 'https://poruch.example';

describe('pages in the visitor’s language', () => {
  let server: TestServer;
  let siteDir: string;

  beforeAll(async () => {
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-english-'));
    await fs.writeFile(path.join(siteDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await fs.mkdir(path.join(siteDir, 'pages'));
    const routes = [];
    for (const [name, route] of [
      ['home', '/'],
      ['about', '/about'],
      ['dashboard', '/dashboard/*'],
      ['profile', '/services/:id/:tab?'],
    ] as const) {
      await fs.writeFile(path.join(siteDir, 'pages', `${name}.html`), page(name, 'uk'));
      await fs.writeFile(path.join(siteDir, 'pages', `${name}.en_GB.html`), page(name, 'en-GB'));
      routes.push({
        name,
        path: route,
        file: `pages/${name}.html`,
        files: { ua: `pages/${name}.html`, en_GB: `pages/${name}.en_GB.html` },
      });
    }
    for (const [code, lang] of [
      ['ua', 'uk'],
      ['en_GB', 'en-GB'],
    ]) {
      await fs.writeFile(
        path.join(siteDir, 'pages', `index.${code}.html`),
        `<!doctype html><html lang="${lang}"><head></head><body><div id="root"></div></body></html>`,
      );
    }
    await fs.writeFile(path.join(siteDir, 'pages', 'profile-shadow.css'), '.x{}');
    await fs.writeFile(path.join(siteDir, 'pages', 'profile-page.css'), '.y{}');
    await fs.writeFile(path.join(siteDir, 'pages', 'routes.json'), JSON.stringify(routes));
    server = await startTestServer({ NODE_ENV: 'production', SITE_DIR: siteDir, PUBLIC_URL });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(siteDir, { recursive: true, force: true });
  });

  const lang = (body: string) => /<html lang="([^"]+)"/.exec(body)?.[1];

  it.each([
    [{}, 'uk'],
    [{ 'accept-language': 'en-GB' }, 'en-GB'],
    [{ 'accept-language': 'en-US,en;q=0.9' }, 'en-GB'],
    [{ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' }, 'en-GB'],
    [{ 'accept-language': 'de-DE,de;q=0.9,uk;q=0.7,en;q=0.6' }, 'uk'],
    [{ 'accept-language': 'uk-UA,uk;q=0.9,en-GB;q=0.8' }, 'uk'],
    [{ 'accept-language': 'EN-gb;q=0.5, UK;q=0.4' }, 'en-GB'],
    [{ 'accept-language': 'fr-FR,fr' }, 'uk'],
    [{ 'accept-language': 'en;q=0' }, 'uk'],
    [{ 'accept-language': '*' }, 'uk'],
    [{ 'accept-language': ';;,q=,en;q=abc' }, 'uk'],
    // The stored choice beats the browser's languages.
    [{ 'accept-language': 'en-GB', cookie: 'locale=ua' }, 'uk'],
    [{ 'accept-language': 'uk', cookie: 'a=1; locale=en_GB; b=2' }, 'en-GB'],
    [{ 'accept-language': 'en', cookie: 'locale=ru_UA' }, 'en-GB'],
    [{ cookie: 'mylocale=en_GB' }, 'uk'],
  ])('%j: the page is in %s', async (headers, want) => {
    // A path no route knows too (the app sends it home).
    for (const url of ['/', '/about', '/dashboard/services', '/nowhere']) {
      const res = await get(`${server.url}${url}`, headers as Record<string, string>);
      expect(res.status).toBe(200);
      expect(lang(res.body)).toBe(want);
      const vary = String(res.headers.vary).split(/,\s*/);
      expect(vary).toEqual(
        expect.arrayContaining(['Accept-Encoding', 'Accept-Language', 'Cookie']),
      );
    }
  });

  it('`?lang=` beats the cookie and the browser; an unknown one is ignored', async () => {
    const en = { 'accept-language': 'en-GB', cookie: 'locale=en_GB' };
    expect(lang((await get(`${server.url}/about?lang=ua`, en)).body)).toBe('uk');
    expect(lang((await get(`${server.url}/?x=1&lang=ua`, en)).body)).toBe('uk');
    expect(lang((await get(`${server.url}/about?lang=en_GB`, { cookie: 'locale=ua' })).body)).toBe(
      'en-GB',
    );
    expect(lang((await get(`${server.url}/about?lang=de`, en)).body)).toBe('en-GB');
    expect(lang((await get(`${server.url}/about?lang=%3Cx`, {})).body)).toBe('uk');
  });

  it('each language is its own page: its own ETag, and a 304 only for the same language', async () => {
    const ua = await get(`${server.url}/about`, { 'accept-encoding': 'br' });
    const en = await get(`${server.url}/about`, {
      'accept-encoding': 'br',
      'accept-language': 'en',
    });
    expect(ua.headers['content-encoding']).toBe('br');
    expect(en.body).toContain('about en-GB');
    expect(ua.body).toContain('about uk');
    expect(en.headers.etag).not.toBe(ua.headers.etag);
    const cond = { 'if-none-match': ua.headers.etag! };
    expect((await get(`${server.url}/about`, cond)).status).toBe(304);
    const other = await get(`${server.url}/about`, { ...cond, cookie: 'locale=en_GB' });
    expect(other.status).toBe(200);
    expect(other.body).toContain('about en-GB');
  });

  it('a route with one path names its language versions in its head', async () => {
    for (const [url, base] of [
      ['/about?lang=en_GB', `${PUBLIC_URL}/about`],
      ['/', `${PUBLIC_URL}/`],
    ]) {
      const { body } = await get(`${server.url}${url}`);
      expect(body).toContain(
        `<link rel="alternate" hreflang="uk" href="${base}?lang=ua">` +
          `<link rel="alternate" hreflang="en" href="${base}?lang=en_GB">` +
          `<link rel="alternate" hreflang="x-default" href="${base}"></head>`,
      );
    }
    // Pages without one path (the dashboard) and unknown paths have none.
    expect((await get(`${server.url}/dashboard/x`)).body).not.toContain('hreflang');
    expect((await get(`${server.url}/nowhere`)).body).not.toContain('hreflang');
  });

  it('a profile’s first screen and JSON-LD are in the page’s language, with its language versions', async () => {
    const owner = await partner(server);
    const admin = (await loggedIn(server, 'ADMIN')).client;
    const evil = '</script><script>alert(1)</script>';
    const edit = await owner.client.put(`/api/v1/my/services/${owner.serviceId}`, {
      ...owner.body.service,
      descriptionUa: `Опис ${evil}`,
      descriptionOther: 'Described in English',
    });
    expect(edit.status).toBe(200);
    expect((await admin.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status).toBe(
      200,
    );
    const url = `${PUBLIC_URL}/services/${owner.serviceId}`;
    const ldOf = (body: string) => {
      const m = /<script type="application\/ld\+json" id="poruch-jsonld">(.*?)<\/script>/.exec(
        body,
      );
      expect(m).not.toBeNull();
      return JSON.parse(m![1]!) as Record<string, unknown>[];
    };

    const en = await get(`${server.url}/services/${owner.serviceId}`, { 'accept-language': 'en' });
    expect(lang(en.body)).toBe('en-GB');
    expect(en.body).toContain('<span class="flag__name">Poland</span>');
    expect(en.body).toContain('part="root" lang="en-GB"');
    // The English description first, the Ukrainian one after it, marked as Ukrainian.
    expect(en.body).toContain('<p class="profile__text">Described in English</p>');
    expect(en.body).toContain('<p class="profile__text muted" lang="uk">Опис &lt;/script&gt;');
    expect(en.body).toContain(`<link rel="alternate" hreflang="en" href="${url}?lang=en_GB">`);
    const [webPage, business] = ldOf(en.body);
    expect(webPage).toMatchObject({
      '@type': 'WebPage',
      url: `${url}?lang=en_GB`,
      inLanguage: 'en',
      about: { '@id': `${url}#business` },
      workTranslation: [{ '@type': 'WebPage', url: `${url}?lang=ua`, inLanguage: 'uk' }],
    });
    expect(business).toMatchObject({ '@type': 'LocalBusiness', '@id': `${url}#business`, url });
    // No text ends the script early: one script element, its `<` escaped.
    expect(en.body.match(/<script/g)).toHaveLength(1);
    expect(en.body).toContain('\\u003c/script>\\u003cscript>alert(1)');

    const ua = await get(`${server.url}/services/${owner.serviceId}`, { cookie: 'locale=ua' });
    expect(ua.body).toContain('<span class="flag__name">Польща</span>');
    expect(ldOf(ua.body)[0]).toMatchObject({ inLanguage: 'uk', url: `${url}?lang=ua` });
    expect(ua.headers.etag).not.toBe(en.headers.etag);
    // Each language's page is kept apart: asked again, each is still in its own language.
    expect((await get(`${server.url}/services/${owner.serviceId}?lang=en_GB`)).body).toContain(
      'Poland',
    );
    expect((await get(`${server.url}/services/${owner.serviceId}`)).body).toContain('Польща');
  });

  it('the sitemap lists every page in both languages, each naming all versions', async () => {
    const owner = await partner(server);
    const admin = (await loggedIn(server, 'ADMIN')).client;
    await admin.post(`/api/v1/admin/services/${owner.serviceId}/approve`);
    const res = await get(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.body).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
    const entries = [...res.body.matchAll(/<url>(.*?)<\/url>/g)].map((m) => m[1]!);
    for (const p of ['/about', `/services/${owner.serviceId}`]) {
      const base = `${PUBLIC_URL}${p}`;
      const alternates =
        `<xhtml:link rel="alternate" hreflang="uk" href="${base}?lang=ua"/>` +
        `<xhtml:link rel="alternate" hreflang="en" href="${base}?lang=en_GB"/>` +
        `<xhtml:link rel="alternate" hreflang="x-default" href="${base}"/>`;
      for (const code of ['ua', 'en_GB']) {
        const entry = entries.find((e) => e.startsWith(`<loc>${base}?lang=${code}</loc>`));
        expect(entry, `${p} ${code}`).toBeDefined();
        expect(entry!.endsWith(alternates)).toBe(true);
      }
    }
    // Every entry is one language version of a page.
    expect(entries.every((e) => /^<loc>[^<]+\?lang=(ua|en_GB)<\/loc>/.test(e))).toBe(true);
  });
});
