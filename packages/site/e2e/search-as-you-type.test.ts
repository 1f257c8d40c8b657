import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, screenshot } from './fixtures/index.js';
import { newPage } from './helpers/screens.js';
import { LONG, startWidgetEnv, waitForState, type WidgetEnv } from './helpers/widgets.js';

/**
 * Search as you type, in Chromium: the home page and `<poruch-search>` on a partner's page show
 * the results of typed text without the Search button, the home page's map follows the text, and
 * an answer that comes late never replaces a newer one. One server (the demo catalogue) and one
 * browser for the file.
 */
let env: WidgetEnv;

beforeAll(async () => {
  env = await startWidgetEnv();
}, 180_000);

afterAll(async () => {
  await env?.stop();
});

const FIRST = 'перукарня';
const SECOND = 'автосервіс';

interface Page_ {
  total: number;
  items: { name: string }[];
}

/** The search's own answer for a text, straight from the API. */
async function apiSearch(q: string, pageSize = 20, extra = ''): Promise<Page_> {
  const res = await fetch(
    `${env.server.baseUrl}/api/v1/services?q=${encodeURIComponent(q)}&pageSize=${pageSize}${extra}`,
  );
  return (await res.json()) as Page_;
}

const isSearch = (url: string, q: string) =>
  url.includes('/api/v1/services?') && new URL(url).searchParams.get('q') === q;

/**
 * Holds back the answer of the first `GET services` for `q` until `release()`; then gives it
 * to the page (when the page still waits for it: it may have cancelled the request).
 */
async function holdFirst(page: Page, q: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let arrived!: () => void;
  const held = new Promise<void>((r) => (arrived = r));
  let delivered!: () => void;
  const done = new Promise<void>((r) => (delivered = r));
  let first = true;
  await page.route(
    (url) => isSearch(url.href, q),
    async (route: Route) => {
      if (!first) return route.continue();
      first = false;
      arrived();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response }).catch(() => undefined); // cancelled by the page
      delivered();
    },
  );
  return {
    held,
    release: async () => {
      release();
      await done;
      // One frame for the page to handle the answer, were it to take it.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    },
  };
}

/** A page in the language, its cookie choice made (newPage), and its errors. */
async function homePage(lang: string) {
  const page = await newPage(env.browser);
  await page.addInitScript((locale) => localStorage.setItem('locale', locale), lang);
  return { page, errors: collectErrors(page) };
}

const cardTitles = (page: Page) =>
  page.getByTestId('results').locator('.card__title').allTextContents();

describe('search as you type on the home page', () => {
  it.each(['ua', 'en_GB'])(
    'in %s: typing shows the results and the map follows, without pressing Search',
    async (lang) => {
      const expected = await apiSearch(FIRST);
      expect(expected.total).toBeGreaterThan(0);
      const { page, errors } = await homePage(lang);
      await page.goto(`${env.server.baseUrl}/`);
      const box = page.getByRole('searchbox');
      await expect
        .poll(() => page.locator('.results__count').textContent(), { timeout: LONG })
        .toMatch(/\d/);
      const historyBefore = await page.evaluate(() => history.length);

      const mapAnswer = page.waitForResponse(
        (r) => r.url().includes('/api/v1/map?') && new URL(r.url()).searchParams.get('q') === FIRST,
        { timeout: LONG },
      );
      await box.pressSequentially(FIRST, { delay: 30 });
      await expect
        .poll(() => cardTitles(page), { timeout: LONG })
        .toEqual(expected.items.map((s) => s.name));
      await expect
        .poll(() => page.locator('.results__count').textContent(), { timeout: LONG })
        .toMatch(new RegExp(`\\b${expected.total}\\b`));
      // The map asked for the same text and shows the search's services in its view that are
      // on the map.
      const mapResponse = await mapAnswer;
      const bbox = new URL(mapResponse.url()).searchParams.get('bbox')!;
      const placed = await apiSearch(FIRST, 1, `&onMap=true&bbox=${bbox}`);
      expect(placed.total).toBeGreaterThan(0);
      const map = (await mapResponse.json()) as {
        clusters: { count: number }[];
        points: unknown[];
      };
      expect(map.clusters.reduce((n, c) => n + c.count, 0) + map.points.length).toBe(placed.total);
      // The URL holds the text in one new entry for the whole typing, not one per letter.
      expect(new URL(page.url()).searchParams.get('q')).toBe(FIRST);
      expect(await page.evaluate(() => history.length)).toBe(historyBefore + 1);
      // The Search button stays for keyboards and screen readers.
      expect(await page.locator('.search-form__submit').isVisible()).toBe(true);
      // Said to screen readers once it has settled.
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: /\d/ }).first().textContent(), {
          timeout: LONG,
        })
        .toMatch(new RegExp(`\\b${expected.total}\\b`));
      await screenshot(page, `home-typing-${lang}`);
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it('an answer that comes late never replaces a newer one', async () => {
    const newer = await apiSearch(SECOND);
    expect(newer.total).toBeGreaterThan(0);
    const { page, errors } = await homePage('en_GB');
    await page.goto(`${env.server.baseUrl}/?view=list`);
    await expect
      .poll(() => page.locator('.results__count').textContent(), { timeout: LONG })
      .toMatch(/\d/);
    const gate = await holdFirst(page, FIRST);
    const box = page.getByRole('searchbox');
    await box.fill(FIRST);
    await gate.held;
    await box.fill(SECOND);
    const titles = newer.items.map((s) => s.name);
    await expect.poll(() => cardTitles(page), { timeout: LONG }).toEqual(titles);
    await gate.release();
    expect(await cardTitles(page)).toEqual(titles);
    expect(new URL(page.url()).searchParams.get('q')).toBe(SECOND);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('search as you type in <poruch-search> on a partner page', () => {
  it('typing shows the results, and a late answer never replaces a newer one', async () => {
    const first = await apiSearch(FIRST, 5);
    const second = await apiSearch(SECOND, 5);
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const host = await env.hostPage(
      'search-as-you-type',
      `<poruch-search api-base="{{API}}" lang="en_GB" page-size="5"></poruch-search>`,
      { lang: 'en' },
    );
    await page.goto(host);
    await waitForState(page, 'poruch-search');
    const titles = () => page.locator('poruch-search [part~="result-title"]').allTextContents();
    const box = page.locator('poruch-search').getByRole('searchbox');

    await box.pressSequentially(FIRST, { delay: 30 });
    await expect.poll(titles, { timeout: LONG }).toEqual(first.items.map((s) => s.name));

    const gate = await holdFirst(page, 'перук');
    await box.fill('перук');
    await gate.held;
    await box.fill(SECOND);
    await expect.poll(titles, { timeout: LONG }).toEqual(second.items.map((s) => s.name));
    await gate.release();
    expect(await titles()).toEqual(second.items.map((s) => s.name));
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
