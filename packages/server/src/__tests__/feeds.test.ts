import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { Window, type Element } from 'happy-dom';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';
import { services, vacancies } from '../db/schema.js';
import { FEED_ENTRIES } from '../routes/feeds.js';
import { rawGet } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Atom feeds (docs/open-data.md): `/feeds/services.atom` and `/feeds/vacancies.atom` are valid
 * Atom (RFC 4287: parsed by happy-dom's XML DOMParser and checked for the required elements),
 * newest first and capped, filtered by country and category (bad values: 400), in the language
 * asked, with every user text escaped, and cacheable with an ETag. The site's pages link them.
 */

const PUBLIC_URL = 'https://poruch.example';
const ATOM = 'http://www.w3.org/2005/Atom';
const EVIL = `<script>alert(1)</script> & "quotes" 'apos' ]]> \u0007bell`;

const parser = new new Window().DOMParser();

/** The feed parsed as XML; fails on a document that is not well-formed. */
function parseFeed(text: string) {
  // happy-dom's parser accepts a bare & or <: the raw text is checked for them first.
  expect(text.replace(/&(?:amp|lt|gt|quot|apos);/g, '')).not.toMatch(/&/);
  expect(text).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<feed /);
  const doc = parser.parseFromString(text, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  const feed = doc.documentElement;
  expect(feed.localName).toBe('feed');
  expect(feed.namespaceURI).toBe(ATOM);
  const child = (el: Element, name: string) =>
    [...el.children].filter((c) => c.localName === name && c.namespaceURI === ATOM);
  const one = (el: Element, name: string) => {
    const found = child(el, name);
    expect(found, `one <${name}>`).toHaveLength(1);
    return found[0]!;
  };
  const date = (el: Element) => {
    const value = one(el, 'updated').textContent!;
    // RFC 3339 date-time.
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    return value;
  };
  // RFC 4287 §4.1.1: id, title, updated; an author (here the feed's); a self link.
  const links = child(feed, 'link');
  const self = links.find((l) => l.getAttribute('rel') === 'self');
  expect(self?.getAttribute('type')).toBe('application/atom+xml');
  expect(one(one(feed, 'author'), 'name').textContent).toBeTruthy();
  const entries = child(feed, 'entry').map((entry) => {
    const link = child(entry, 'link').find(
      (l) => (l.getAttribute('rel') ?? 'alternate') === 'alternate',
    );
    expect(link).toBeTruthy();
    return {
      id: one(entry, 'id').textContent!,
      title: one(entry, 'title').textContent!,
      updated: date(entry),
      link: link!.getAttribute('href')!,
      summary: one(entry, 'summary').textContent!,
    };
  });
  return {
    id: one(feed, 'id').textContent!,
    title: one(feed, 'title').textContent!,
    updated: date(feed),
    self: self!.getAttribute('href')!,
    lang: feed.getAttribute('xml:lang'),
    entries,
  };
}

describe('Atom feeds', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL });
    const db = server.database.db;
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));
    const add = async (key: string, values: Partial<typeof services.$inferInsert>) => {
      const [row] = await db
        .insert(services)
        .values({
          name: key,
          countryCode: 'PL',
          category: 'legal_services',
          status: 'approved',
          descriptionUa: `Опис ${key}`,
          descriptionOther: `Description of ${key}`,
          ...values,
        })
        .returning({ id: services.id });
      ids[key] = row!.id;
      return row!.id;
    };
    // More than a feed holds, oldest first.
    await db.execute(sql`INSERT INTO services (name, country_code, category, status, created_at, updated_at)
      SELECT 'Old ' || g, 'PL', 'legal_services', 'approved', ${at(0)}::timestamptz - g * interval '1 minute',
        ${at(0)}::timestamptz - g * interval '1 minute'
      FROM generate_series(1, ${FEED_ENTRIES + 5}) g`);
    await add('german', {
      countryCode: 'DE',
      category: 'food',
      createdAt: at(10),
      updatedAt: at(10),
    });
    await add('evil', { name: EVIL, descriptionUa: EVIL, createdAt: at(20), updatedAt: at(25) });
    await add('pending', { status: 'pending', createdAt: at(30) });
    await add('lapsed', { createdAt: at(31) });
    await db.execute(sql`UPDATE services SET confirmation = 'lapsed' WHERE id = ${ids.lapsed}`);

    const vacancy = async (
      key: string,
      serviceId: string,
      values: Partial<typeof vacancies.$inferInsert>,
    ) => {
      const [row] = await db
        .insert(vacancies)
        .values({ serviceId, name: key, salary: '20 €/h', ...values })
        .returning({ id: vacancies.id });
      ids[key] = row!.id;
    };
    await vacancy('Cook', ids.german!, { createdAt: at(40), updatedAt: at(40) });
    await vacancy(EVIL, ids.evil!, { description: EVIL, createdAt: at(41), updatedAt: at(41) });
    await vacancy('Closed', ids.german!, { isOpen: false, createdAt: at(42) });
    await vacancy('Of pending', ids.pending!, { createdAt: at(43) });
    await vacancy('Of lapsed', ids.lapsed!, { createdAt: at(44) });
  });
  afterAll(() => server?.close());

  const get = async (p: string, headers: Record<string, string> = {}) => {
    const res = await rawGet(`${server.url}${p}`, { 'accept-encoding': 'br', ...headers });
    const body =
      res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.body;
    return { ...res, text: body.toString('utf8') };
  };

  it('services: valid Atom, newest visible services first, capped, titles in Ukrainian by default', async () => {
    const res = await get('/feeds/services.atom');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = parseFeed(res.text);
    expect(feed.title).toBe('Нові сервіси на «Поруч»');
    expect(feed.lang).toBe('uk');
    expect(feed.self).toBe(`${PUBLIC_URL}/feeds/services.atom`);
    expect(feed.id).toBe(feed.self);
    expect(feed.entries).toHaveLength(FEED_ENTRIES);
    expect(feed.entries.slice(0, 3).map((e) => e.title)).toEqual([
      EVIL.replace('\u0007', ''),
      'german',
      'Old 1',
    ]);
    expect(feed.entries[0]).toMatchObject({
      id: `urn:uuid:${ids.evil}`,
      link: `${PUBLIC_URL}/services/${ids.evil}`,
      updated: '2026-11-01T12:25:00.000Z',
    });
    // The feed's updated is its newest entry's.
    expect(feed.updated).toBe('2026-11-01T12:25:00.000Z');
    expect(feed.entries[1]!.summary).toBe('Їжа · Німеччина. Опис german');
    const titles = feed.entries.map((e) => e.title);
    expect(titles).not.toContain('pending');
    expect(titles).not.toContain('lapsed');
  });

  it('escapes every user text: the evil name is text, never markup', async () => {
    const { text } = await get('/feeds/services.atom');
    expect(text).not.toContain('<script>');
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    const feed = parseFeed(text);
    expect(feed.entries[0]!.summary).toContain(EVIL.replace('\u0007', ''));
  });

  it('filters by country and category, in the language asked', async () => {
    const feed = parseFeed(
      (await get('/feeds/services.atom?country=de&category=food&lang=en_GB')).text,
    );
    expect(feed.title).toBe('New services on Poruch · Germany · Food');
    expect(feed.lang).toBe('en');
    expect(feed.self).toBe(`${PUBLIC_URL}/feeds/services.atom?country=DE&category=food&lang=en_GB`);
    expect(feed.entries.map((e) => e.title)).toEqual(['german']);
    expect(feed.entries[0]!.link).toBe(`${PUBLIC_URL}/services/${ids.german}?lang=en_GB`);
    expect(feed.entries[0]!.summary).toBe('Food · Germany. Description of german');
    const none = parseFeed((await get('/feeds/services.atom?country=UA&category=food')).text);
    expect(none.entries).toEqual([]);
    expect(none.updated).toBe('1970-01-01T00:00:00.000Z');
  });

  it('vacancies: open vacancies of visible services only, with the service and the pay', async () => {
    const feed = parseFeed((await get('/feeds/vacancies.atom?lang=en_GB')).text);
    expect(feed.title).toBe('New vacancies on Poruch');
    expect(feed.entries.map((e) => e.title)).toEqual([
      `${EVIL.replace('\u0007', '')} at ${EVIL.replace('\u0007', '')}`,
      'Cook at german',
    ]);
    expect(feed.entries[1]).toMatchObject({
      id: `urn:uuid:${ids.Cook}`,
      link: `${PUBLIC_URL}/services/${ids.german}/vacancies?lang=en_GB`,
      summary: 'Germany · Pay: 20 €/h · Experience: Any',
    });
    const ua = parseFeed((await get('/feeds/vacancies.atom?country=DE')).text);
    expect(ua.title).toBe('Нові вакансії на «Поруч» · Німеччина');
    expect(ua.entries.map((e) => e.title)).toEqual(['Cook — german']);
    expect(ua.entries[0]!.summary).toBe('Німеччина · Оплата: 20 €/h · Досвід: Будь-який');
  });

  it('refuses an unknown country, category or language with 400 naming the field', async () => {
    for (const [query, field] of [
      ['country=ZZ', 'country'],
      ['country=Poland', 'country'],
      ['category=cheese', 'category'],
      ['lang=de', 'lang'],
      ['colour=red', undefined],
    ] as const) {
      for (const feed of ['services', 'vacancies']) {
        const res = await rawGet(`${server.url}/feeds/${feed}.atom?${query}`);
        expect(res.status, query).toBe(400);
        const body = JSON.parse(res.body.toString()) as {
          errors: { message: string; fields?: { field: string; key: string }[] };
        };
        expect(body.errors.message).toBe('validation_failed');
        if (field) expect(body.errors.fields?.map((f) => f.field)).toEqual([field]);
      }
    }
  });

  it('is cacheable: an ETag, 304 on a match, a new tag once a new service is approved', async () => {
    const first = await get('/feeds/services.atom');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(first.headers['cache-control']).toBe('public, max-age=300, s-maxage=900');
    expect((await get('/feeds/services.atom', { 'if-none-match': etag })).status).toBe(304);
    await server.database.db
      .update(services)
      .set({ status: 'approved', createdAt: new Date() })
      .where(sql`${services.id} = ${ids.pending}`);
    const after = await get('/feeds/services.atom', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(parseFeed(after.text).entries[0]!.title).toBe('pending');
  });
});

describe('the site links the feeds', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The built site (CI builds before the tests), served as in production.
    expect(
      fs.existsSync(path.join(REPO_ROOT, 'packages/site/dist/pages/routes.json')),
      'build the site first',
    ).toBe(true);
    server = await startTestServer({ NODE_ENV: 'production', MAIL_WORKER: 'false' });
  });
  afterAll(() => server?.close());

  const feedLinksOf = (html: string) =>
    [...html.matchAll(/<link rel="alternate" type="application\/atom\+xml"[^>]*>/g)].map(
      (m) => m[0],
    );

  it('every page names both feeds in its head, in the page’s language', async () => {
    const ua = [
      '<link rel="alternate" type="application/atom+xml" title="Нові сервіси на «Поруч»" href="/feeds/services.atom">',
      '<link rel="alternate" type="application/atom+xml" title="Нові вакансії на «Поруч»" href="/feeds/vacancies.atom">',
    ];
    const en = [
      '<link rel="alternate" type="application/atom+xml" title="New services on Poruch" href="/feeds/services.atom?lang=en_GB">',
      '<link rel="alternate" type="application/atom+xml" title="New vacancies on Poruch" href="/feeds/vacancies.atom?lang=en_GB">',
    ];
    for (const page of [
      '/',
      '/about',
      '/services/00000000-0000-4000-8000-000000000000',
      '/no-such-page',
    ]) {
      for (const [lang, links] of [
        ['ua', ua],
        ['en_GB', en],
      ] as const) {
        const res = await rawGet(`${server.url}${page}?lang=${lang}`);
        expect(res.status).toBe(200);
        expect(feedLinksOf(res.body.toString('utf8')), `${page} ${lang}`).toEqual(links);
      }
    }
  });
});
