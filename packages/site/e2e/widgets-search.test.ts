import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, screenshot } from './fixtures/index.js';
import {
  en,
  LONG,
  startWidgetEnv,
  trackedContext,
  ua,
  waitForState,
  type WidgetEnv,
} from './helpers/widgets.js';

interface ServicePage {
  items: { id: string; name: string; countryCode: string; isOnline: boolean; lat: number | null }[];
  total: number;
}

let env: WidgetEnv;

beforeAll(async () => {
  env = await startWidgetEnv();
});

afterAll(async () => {
  await env?.stop();
});

const search = (page: Page) => page.locator('poruch-search');

/** The next `GET services` whose query passes `test`, after `action`. */
async function nextSearch(
  page: Page,
  test: (q: URLSearchParams) => boolean,
  action: () => Promise<unknown>,
) {
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/v1/services?') && test(new URL(r.url()).searchParams),
    { timeout: LONG },
  );
  await action();
  const res = await answer;
  expect(res.status()).toBe(200);
  return (await res.json()) as ServicePage;
}

const titles = (page: Page) => search(page).locator('[part~="result-title"]').allTextContents();

describe('<poruch-search> from the built bundles on a foreign origin', () => {
  it('shows results for a typed query and applies the filters', async () => {
    const { context, page, tracked } = await trackedContext(env);
    const errors = collectErrors(page);
    const first = await nextSearch(
      page,
      () => true,
      async () =>
        page.goto(
          await env.hostPage(
            'search',
            '<poruch-search api-base="{{API}}" page-size="5"></poruch-search>',
          ),
        ),
    );
    await waitForState(page, 'poruch-search');
    expect(first.total).toBe(360);
    await expect.poll(() => titles(page)).toEqual(first.items.map((s) => s.name));

    // Typing a name and pressing Enter searches for it.
    const word = first.items[0]!.name.split(/\s+/).find((w) => w.length > 3)!;
    const byText = await nextSearch(
      page,
      (q) => q.get('q') === word,
      async () => {
        await search(page).locator('input[type="search"]').fill(word);
        await search(page).locator('input[type="search"]').press('Enter');
      },
    );
    expect(byText.total).toBeGreaterThan(0);
    expect(byText.total).toBeLessThan(first.total);
    await expect.poll(() => titles(page)).toEqual(byText.items.map((s) => s.name));
    await expect
      .poll(() => search(page).locator('[part~="count"]').textContent())
      .toBe(ua('widget.results', { count: byText.total }));

    // Country: the choice applies at once.
    await search(page).locator('input[type="search"]').fill('');
    const pl = await nextSearch(
      page,
      (q) => q.get('country') === 'PL' && !q.has('q'),
      () => search(page).getByLabel(ua('home.country_filter')).selectOption('PL'),
    );
    expect(pl.total).toBeGreaterThan(0);
    expect(pl.items.every((s) => s.countryCode === 'PL')).toBe(true);
    await expect.poll(() => titles(page)).toEqual(pl.items.map((s) => s.name));

    // Online only.
    const online = await nextSearch(
      page,
      (q) => q.get('online') === 'true',
      () => search(page).getByLabel(ua('widget.online_filter')).check(),
    );
    expect(online.items.every((s) => s.isOnline)).toBe(true);

    // Nothing found still says so (not a blank box).
    await nextSearch(
      page,
      (q) => q.get('q') === 'zzqxjvw',
      async () => {
        await search(page).locator('input[type="search"]').fill('zzqxjvw');
        await search(page).locator('input[type="search"]').press('Enter');
      },
    );
    await expect
      .poll(() => search(page).locator('[part~="count"]').textContent())
      .toBe(ua('widget.results', { count: 0 }));

    expect((await tracked.fetches()).every((f) => f.credentials === 'omit')).toBe(true);
    await tracked.expectNoCookies();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('drives the map on the same page (examples/diaspora-map)', async () => {
    const { context, page } = await trackedContext(env);
    const maps: URLSearchParams[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/map?')) maps.push(new URL(r.url()).searchParams);
    });
    await page.goto(env.example('diaspora-map'));
    await waitForState(page, 'poruch-map');
    await waitForState(page, 'poruch-search');
    const map = page.locator('poruch-map');

    // A filter in the search refilters the map.
    const filtered = page.waitForResponse(
      (r) => r.url().includes('/api/v1/map?') && r.url().includes('country=PL'),
      { timeout: LONG },
    );
    await search(page).getByLabel(ua('home.country_filter')).selectOption('PL');
    expect((await filtered).status()).toBe(200);
    await expect.poll(() => map.getAttribute('state')).toBe('ready');

    // "Show on the map" flies the map to the service: a map call at street zoom around it.
    await expect.poll(() => search(page).locator('[part~="result"]').count()).toBeGreaterThan(0);
    const flown = page.waitForResponse(
      (r) => r.url().includes('/api/v1/map?') && /zoom=1[4-8]/.test(r.url()),
      { timeout: LONG },
    );
    await search(page)
      .getByRole('button', { name: ua('widget.show_on_map') })
      .first()
      .click();
    const res = await flown;
    const bbox = new URL(res.url()).searchParams.get('bbox')!.split(',').map(Number);
    // Kraków-sized box in Poland.
    expect(bbox[2]! - bbox[0]!).toBeLessThan(1);
    expect(bbox[1]!).toBeGreaterThan(48);
    expect(bbox[3]!).toBeLessThan(55.5);
    await expect
      .poll(() => map.locator('.poruch-point, .poruch-cluster').count())
      .toBeGreaterThan(0);
    expect(maps.some((q) => q.get('country') === 'PL')).toBe(true);
    await screenshot(page, 'widgets-search-drives-map');
    await context.close();
  });

  it('an API outage shows a translated error state and retries', async () => {
    const { context, page } = await trackedContext(env);
    await page.route(`${env.server.baseUrl}/api/**`, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ errors: { message: 'service_unavailable' } }),
      }),
    );
    await page.goto(
      await env.hostPage(
        'search-outage',
        '<poruch-search api-base="{{API}}" lang="en_GB" page-size="3"></poruch-search>',
      ),
    );
    await waitForState(page, 'poruch-search', 'error');
    const error = search(page).locator('[part~="error"]');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await error.textContent()).toContain(en('widget.error_title'));
    expect(await error.textContent()).toContain(en('error.service_unavailable'));
    await page.unroute(`${env.server.baseUrl}/api/**`);
    await search(page).locator('[part~="retry"]').click();
    await waitForState(page, 'poruch-search');
    await expect.poll(() => search(page).locator('[part~="result"]').count()).toBe(3);
    await context.close();
  });
});
