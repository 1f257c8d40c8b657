import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CATEGORY_KEYS } from '@poruch/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectErrors,
  launchBrowser,
  REPO_ROOT,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { startStaticServer, type StaticServer } from './fixtures/staticServer.js';
import {
  credentialedControl,
  en,
  LONG,
  PLANTED_COOKIE,
  plantCookie,
  requestCookie,
  ua,
} from './helpers/widgets.js';

let server: RunningServer | undefined;
let site: StaticServer | undefined;
let browser: Browser | undefined;
/** A second folder on a foreign origin, for the host pages written by the tests below. */
let hostDir: string | undefined;
let hosts: StaticServer | undefined;

beforeAll(async () => {
  hostDir = await mkdtemp(path.join(os.tmpdir(), 'poruch-map-host-'));
  hosts = await startStaticServer(hostDir);
  // The demo catalogue: 364 approved services in 63 cities, 360 of them public (4 hidden: not re-confirmed).
  server = await startServer();
  site = await startStaticServer(path.join(REPO_ROOT, 'examples'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await hosts?.stop();
  await server?.stop();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** The diaspora page on the foreign origin, with the built bundles from the API's origin. */
async function openDiasporaPage(page: Page) {
  await plantCookie(page.context(), server!.baseUrl);
  const apiRequests: { url: string; cookie?: string }[] = [];
  page.on('request', (req) => {
    if (req.url().startsWith(server!.baseUrl)) {
      const entry: { url: string; cookie?: string } = { url: req.url() };
      apiRequests.push(entry);
      void requestCookie(req).then((cookie) => (entry.cookie = cookie));
    }
  });
  await page.goto(`${site!.origin}/diaspora-map/?api=${encodeURIComponent(server!.baseUrl)}`);
  await page.locator('poruch-map[state="ready"]').waitFor({ timeout: 20_000 });
  return apiRequests;
}

describe('<poruch-map> from the built bundles on a foreign origin', () => {
  it('shows the base layer and clusters without cookies, and a cluster click zooms in', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const requests = await openDiasporaPage(page);

    // Only the loader and the map's chunks, from the exact or major URL.
    expect(requests.some((r) => r.url.endsWith('/widgets/v0/poruch.js'))).toBe(true);
    // None carried the planted cookie, though a request with credentials does.
    const control = await credentialedControl(page, server!.baseUrl);
    await expect
      .poll(() => requests.find((r) => r.url === control)?.cookie)
      .toContain(PLANTED_COOKIE);
    expect(requests.filter((r) => r.url !== control && r.cookie)).toEqual([]);

    const map = page.locator('poruch-map');
    await expect.poll(() => map.locator('path.base-country').count()).toBeGreaterThan(100);
    const clusters = map.locator('.poruch-cluster');
    await expect.poll(() => clusters.count()).toBeGreaterThan(0);

    const answer = page.waitForResponse(
      (r) => r.url().includes('/api/v1/map') && /zoom=([5-9]|1\d)/.test(r.url()),
    );
    await clusters.first().click();
    const zoomed = await answer;
    expect(zoomed.status()).toBe(200);

    // One PNG per width in WIDTHS (375 and 1280).
    await screenshot(page, 'widgets-diaspora-map');
    expect(
      errors.filter((e) => !/tile|ERR_NAME|ERR_INTERNET|Failed to load resource/i.test(e)),
    ).toEqual([]);
    await context.close();
  });

  it('opens a card for a point and fires poruch:select out of the shadow root', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openDiasporaPage(page);
    await page.evaluate(() => {
      (window as any).__selected = [];
      document.addEventListener('poruch:select', (e) =>
        (window as any).__selected.push((e as CustomEvent).detail),
      );
    });
    // Kraków at street level, where services are points (as a search's "Show on the map" asks).
    const map = page.locator('poruch-map');
    const moved = page.waitForResponse(
      (r) => r.url().includes('/api/v1/map?') && r.url().includes('zoom=17'),
    );
    await page.evaluate(() =>
      document.dispatchEvent(
        new CustomEvent('poruch:focus', {
          detail: { channel: '', id: '', lat: 50.06, lng: 19.94, zoom: 17 },
        }),
      ),
    );
    await moved;
    const point = map.locator('.poruch-point').first();
    await point.waitFor({ timeout: 20_000 });
    await point.click();
    await expect.poll(() => map.locator('[part~="card"]').count()).toBe(1);
    const selected = await page.evaluate(() => (window as any).__selected as { id: string }[]);
    expect(selected).toHaveLength(1);
    await expect(map.locator('[part~="card-link"]').getAttribute('href')).resolves.toBe(
      `${server!.baseUrl}/services/${selected[0]!.id}`,
    );
    await context.close();
  });
});

/**
 * A page on the foreign origin with the built loader and `body` (`{{API}}`: the server);
 * `blocking`: the loader blocks rendering, as docs/embedding.md advises for no shift at all.
 */
async function mapHost(name: string, body: string, blocking = false): Promise<string> {
  const html = `<!doctype html><html lang="uk"><head><meta charset="utf-8" />
<link rel="icon" href="data:," /><title>${name}</title>
<script type="module"${blocking ? ' blocking="render"' : ''} src="${server!.baseUrl}/widgets/v0/poruch.js"></script></head>
<body>${body.replaceAll('{{API}}', server!.baseUrl)}</body></html>`;
  await writeFile(path.join(hostDir!, `${name}.html`), html);
  return `${hosts!.origin}/${name}.html`;
}

interface MapAnswer {
  clusters: { count: number }[];
  points: unknown[];
}
const total = (a: MapAnswer) => a.points.length + a.clusters.reduce((n, c) => n + c.count, 0);

/** The next `GET map` whose query passes `test`, after `action`. */
async function nextMap(page: Page, test: (q: URLSearchParams) => boolean, action: () => unknown) {
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/v1/map?') && test(new URL(r.url()).searchParams),
    { timeout: 30_000 },
  );
  await action();
  const res = await answer;
  expect(res.status()).toBe(200);
  return { query: new URL(res.url()).searchParams, data: (await res.json()) as MapAnswer };
}

describe('<poruch-map> filters, two maps, leaks and outages', () => {
  it('country, category and online attributes change the clusters', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const first = await nextMap(
      page,
      (q) => !q.has('country'),
      async () =>
        page.goto(
          await mapHost(
            'map-filters',
            '<poruch-map api-base="{{API}}" tile-url="none" zoom="3"></poruch-map>',
          ),
        ),
    );
    const all = total(first.data);
    expect(all).toBeGreaterThan(300);
    const map = page.locator('poruch-map');
    const drawn = () =>
      map
        .locator('.poruch-cluster')
        .evaluateAll((els) => els.reduce((n, e) => n + Number(e.textContent), 0));
    await expect.poll(drawn).toBe(first.data.clusters.reduce((n, c) => n + c.count, 0));

    const pl = await nextMap(
      page,
      (q) => q.get('country') === 'PL',
      () => map.evaluate((el) => el.setAttribute('country', 'PL')),
    );
    expect(total(pl.data)).toBeGreaterThan(0);
    expect(total(pl.data)).toBeLessThan(all);
    await expect.poll(drawn).toBe(pl.data.clusters.reduce((n, c) => n + c.count, 0));

    const food = await nextMap(
      page,
      (q) => q.get('country') === 'PL' && q.get('category') === CATEGORY_KEYS[0],
      () => map.evaluate((el, k) => el.setAttribute('category', k), CATEGORY_KEYS[0]),
    );
    expect(total(food.data)).toBeLessThan(total(pl.data));

    const online = await nextMap(
      page,
      (q) => q.get('online') === 'true' && !q.has('country') && !q.has('category'),
      () =>
        map.evaluate((el) => {
          el.removeAttribute('country');
          el.removeAttribute('category');
          el.setAttribute('online', '');
        }),
    );
    expect(total(online.data)).toBeLessThan(all);
    // The `filters` property wins over the attributes for the keys it sets.
    const de = await nextMap(
      page,
      (q) => q.get('country') === 'DE' && q.get('online') === 'true',
      () =>
        map.evaluate((el) => {
          (el as unknown as { filters: object }).filters = { country: 'DE' };
        }),
    );
    expect(total(de.data)).toBeLessThan(all);
    await context.close();
  });

  it('two maps on one page work independently', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 1400 } });
    const page = await context.newPage();
    const seen: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/map?')) seen.push(r.url());
    });
    await page.goto(
      await mapHost(
        'map-two',
        `<poruch-map id="pl" api-base="{{API}}" tile-url="none" country="PL" center="52,19" zoom="5" style="--poruch-map-height: 420px"></poruch-map>
         <poruch-map id="de" api-base="{{API}}" tile-url="none" country="DE" center="51,10" zoom="5" style="--poruch-map-height: 420px"></poruch-map>`,
      ),
    );
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('poruch-map')].every(
          (m) => m.getAttribute('state') === 'ready',
        ),
      undefined,
      { timeout: 30_000 },
    );
    const pl = page.locator('#pl');
    const de = page.locator('#de');
    await expect
      .poll(() => pl.locator('.poruch-cluster, .poruch-point').count())
      .toBeGreaterThan(0);
    await expect
      .poll(() => de.locator('.poruch-cluster, .poruch-point').count())
      .toBeGreaterThan(0);
    expect(
      await page.evaluate(
        () => (customElements.get('poruch-map') as unknown as { liveMaps: number }).liveMaps,
      ),
    ).toBe(2);

    // A cluster click zooms the Polish map only.
    const deBefore = seen.filter((u) => u.includes('country=DE')).length;
    const zoomed = page.waitForResponse(
      (r) => r.url().includes('country=PL') && /zoom=([6-9]|1\d)/.test(r.url()),
      { timeout: 30_000 },
    );
    await pl.locator('.poruch-cluster').first().click();
    await zoomed;
    // The German map's list still shows its own services.
    await de.locator('button.toggle').click();
    await expect.poll(() => de.locator('.list li').count()).toBeGreaterThan(0);
    expect(seen.filter((u) => u.includes('country=DE')).length).toBe(deBefore);
    expect(await pl.locator('.list').count()).toBe(0);
    await screenshot(page, 'widgets-map-two');
    await context.close();
  });

  it('removing and re-adding the elements 50 times leaks no listener, timer or map instance', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    // Count the timers and intervals that are still pending.
    await context.addInitScript(() => {
      const pending = new Set<unknown>();
      const w = window as unknown as Record<string, unknown>;
      const st = window.setTimeout.bind(window);
      const ct = window.clearTimeout.bind(window);
      const si = window.setInterval.bind(window);
      const ci = window.clearInterval.bind(window);
      w.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const id = st(
          (...a: unknown[]) => {
            pending.delete(id);
            if (typeof fn === 'function') fn(...a);
          },
          ms,
          ...args,
        );
        pending.add(id);
        return id;
      };
      w.clearTimeout = (id: number) => {
        pending.delete(id);
        ct(id);
      };
      w.setInterval = (fn: TimerHandler, ms?: number, ...args: unknown[]) => {
        const id = si(fn, ms, ...args);
        pending.add(id);
        return id;
      };
      w.clearInterval = (id: number) => {
        pending.delete(id);
        ci(id);
      };
      w.__pendingTimers = () => pending.size;
    });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const serviceId = (
      (await (await fetch(`${server!.baseUrl}/api/v1/services?pageSize=1`)).json()) as {
        items: { id: string }[];
      }
    ).items[0]!.id;
    await page.goto(await mapHost('map-leak', '<div id="slot"></div>'));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('DOMDebugger.enable' as never).catch(() => undefined);

    const cycle = (times: number) =>
      page.evaluate(
        async ({ times, api, serviceId }) => {
          const html = `<poruch-map api-base="${api}" tile-url="none"></poruch-map>
            <poruch-search api-base="${api}" page-size="3"></poruch-search>
            <poruch-vacancies api-base="${api}" page-size="3"></poruch-vacancies>
            <poruch-report api-base="${api}" service-id="${serviceId}"></poruch-report>
            <poruch-service api-base="${api}" service-id="${serviceId}"></poruch-service>
            <poruch-dashboard api-base="${api}"></poruch-dashboard>`;
          const slot = document.getElementById('slot')!;
          const ready = () =>
            new Promise<void>((resolve, reject) => {
              const deadline = Date.now() + 20_000;
              const check = () => {
                const els = [...slot.children];
                if (els.length && els.every((e) => e.getAttribute('state') === 'ready')) resolve();
                else if (Date.now() > deadline) reject(new Error(slot.innerHTML));
                else requestAnimationFrame(check);
              };
              check();
            });
          for (let i = 0; i < times; i++) {
            slot.innerHTML = html;
            // Every other round waits for the data; the others remove the elements mid-load.
            if (i % 2 === 0) await ready();
            else await new Promise((r) => requestAnimationFrame(r));
            slot.replaceChildren();
            // The unmount runs a microtask after the removal.
            await new Promise((r) => setTimeout(r, 0));
          }
        },
        { times, api: server!.baseUrl, serviceId },
      );

    const measure = async () => {
      // Let aborted requests settle, then collect garbage before counting. A bounded wait: the
      // requests go to a server on loopback, so each aborted one ends within milliseconds.
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      const listenersOn = async (expression: string) => {
        const { result } = await cdp.send('Runtime.evaluate', { expression });
        const { listeners } = await cdp.send('DOMDebugger.getEventListeners', {
          objectId: result.objectId!,
        });
        return listeners.length;
      };
      return {
        liveMaps: await page.evaluate(
          () => (customElements.get('poruch-map') as unknown as { liveMaps: number }).liveMaps,
        ),
        timers: await page.evaluate(() =>
          (window as unknown as { __pendingTimers(): number }).__pendingTimers(),
        ),
        windowListeners: await listenersOn('window'),
        documentListeners: await listenersOn('document'),
        jsListeners: metric('JSEventListeners'),
        nodes: metric('Nodes'),
      };
    };

    // One warm-up round loads every chunk and its one-time listeners.
    await cycle(2);
    const before = await measure();
    expect(before.liveMaps).toBe(0);
    await cycle(50);
    const after = await measure();
    expect(after.liveMaps).toBe(0);
    expect(after.timers).toBeLessThanOrEqual(before.timers);
    expect(after.windowListeners).toBe(before.windowListeners);
    expect(after.documentListeners).toBe(before.documentListeners);
    // Fifty rounds of six widgets each hold hundreds of listeners; a leak would show as many.
    expect(after.jsListeners).toBeLessThanOrEqual(before.jsListeners + 20);
    expect(after.nodes).toBeLessThanOrEqual(before.nodes + 200);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);

  it('an API outage shows a translated error state with a retry, not a blank box', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.route(`${server!.baseUrl}/api/**`, (route) => route.abort('connectionrefused'));
    let lastMapRequest = Date.now();
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/map?')) lastMapRequest = Date.now();
    });
    await page.goto(
      await mapHost(
        'map-outage',
        `<poruch-map id="ua" api-base="{{API}}" tile-url="none"></poruch-map>
         <poruch-map id="en" api-base="{{API}}" tile-url="none" lang="en_GB"></poruch-map>`,
      ),
    );
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('poruch-map')].every(
          (m) => m.getAttribute('state') === 'error',
        ),
      undefined,
      { timeout: 30_000 },
    );
    const uaError = page.locator('#ua [part~="error"]');
    await expect.poll(() => uaError.isVisible()).toBe(true);
    expect(await uaError.textContent()).toContain(ua('widget.error_title'));
    expect(await uaError.textContent()).toContain(ua('error.network_error'));
    const enError = page.locator('#en [part~="error"]');
    expect(await enError.textContent()).toContain(en('widget.error_title'));
    expect(await enError.textContent()).toContain(en('error.network_error'));
    // The toolbar no longer says "Loading…" beside the error.
    expect(await page.locator('#ua [part~="toolbar"] [role="status"]').textContent()).toBe('');
    // The base layer still shows under the message.
    expect(await page.locator('#ua path.base-country').count()).toBeGreaterThan(100);
    await screenshot(page, 'widgets-map-outage');

    // The screenshot's trip to 375 px and back asks again (and fails) after Leaflet's resize
    // moveend (200 ms) and the map's debounce (150 ms): once the maps stopped asking, go back
    // online, so only the retry button can load the clusters.
    await expect.poll(() => Date.now() - lastMapRequest, { timeout: LONG }).toBeGreaterThan(800);
    // Back online: the retry button loads the clusters.
    await page.unroute(`${server!.baseUrl}/api/**`);
    await page.locator('#ua [part~="retry"]').click();
    await page.waitForFunction(
      () => document.getElementById('ua')?.getAttribute('state') === 'ready',
      undefined,
      {
        timeout: 30_000,
      },
    );
    await expect.poll(() => page.locator('#ua .poruch-cluster').count()).toBeGreaterThan(0);
    expect(await page.locator('#ua [part~="error"]').count()).toBe(0);
    await context.close();
  });
});

/*
 * In the list view the map stays laid out under the list, so the list shows the box the map would
 * show, and a resize asks for the new one. A map its host hides measures 0×0 and asks nothing.
 * Before 101052d, a window resize while the map was hidden made Leaflet take that size, and the
 * map asked for the box of a single point: the list emptied, and the map shown again had no
 * markers (and, shown by its host, kept the 0×0 size and box until the next window resize).
 */
describe('<poruch-map> hidden and shown again', () => {
  /** The map's requests from now on. */
  const watchMap = (page: Page) => {
    const seen: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/map?')) seen.push(new URL(r.url()));
    });
    return seen;
  };
  /** The longitudes a request's bbox spans. */
  const span = (u: URL) => {
    const [west, , east] = u.searchParams.get('bbox')!.split(',').map(Number) as number[];
    return east! - west!;
  };
  /** The longitudes the map's container spans at zoom 5 (8192 px around the world). */
  const shownSpan = async (page: Page) =>
    ((await page
      .locator('poruch-map .leaflet-container')
      .evaluate((el) => (el as HTMLElement).clientWidth)) /
      (256 * 2 ** 5)) *
    360;
  /**
   * Proves that no request follows, so a bounded wait: longer than Leaflet's resize `moveend`
   * (200 ms) and the map's debounce (150 ms) together, with room for a busy machine.
   */
  const settle = (page: Page) => page.waitForTimeout(1000);

  async function openMap(page: Page, name: string) {
    const seen = watchMap(page);
    await page.goto(
      await mapHost(
        name,
        '<poruch-map api-base="{{API}}" tile-url="none" center="50,15" zoom="5"></poruch-map>',
      ),
    );
    await page.locator('poruch-map[state="ready"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('poruch-map .poruch-cluster').count()).toBeGreaterThan(0);
    await settle(page);
    return seen;
  }

  it('in the list view, asks once for the box a resize gives; back on the map, asks nothing more', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const seen = await openMap(page, 'map-hidden-list');
    const asked = seen.length;
    const map = page.locator('poruch-map');
    await map.locator('button.toggle').click();
    const items = map.locator('.list li');
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    // The map stays laid out under the list, out of the keyboard's way.
    const inert = () => map.locator('.map-wrap').evaluate((el) => el.hasAttribute('inert'));
    await expect.poll(inert).toBe(true);

    await page.setViewportSize({ width: 375, height: 900 });
    // The list shows what the map would show at the new width: one request for the 375 px box
    // (before 101052d: a single point's box, and the list said "Nothing in view").
    await expect.poll(() => seen.length).toBe(asked + 1);
    expect(span(seen.at(-1)!)).toBeCloseTo(await shownSpan(page), 0);
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    await settle(page);
    expect(seen.length).toBe(asked + 1);

    // Back on the map: the same box, already drawn, so no request; the markers are there.
    await map.locator('button.toggle').click();
    await expect.poll(inert).toBe(false);
    await expect.poll(() => map.locator('.poruch-cluster').count()).toBeGreaterThan(0);
    await settle(page);
    expect(seen.length).toBe(asked + 1);

    // The list view as seen: the map under it takes no room and shows through nowhere.
    await map.locator('button.toggle').click();
    await expect.poll(inert).toBe(true);
    const list = await map.locator('.list').boundingBox();
    const toolbar = await map.locator('[part~="toolbar"]').boundingBox();
    expect(list!.y).toBeGreaterThanOrEqual(toolbar!.y + toolbar!.height - 1);
    expect(await map.locator('.leaflet-container').isVisible()).toBe(false);
    await screenshot(page, 'widgets-map-list');
    await context.close();
  });

  it('shown again by its host, takes its real size and asks once, with no window resize', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const seen = await openMap(page, 'map-hidden-host');
    const asked = seen.length;
    const map = page.locator('poruch-map');
    await map.evaluate((el) => ((el as HTMLElement).hidden = true));
    await page.setViewportSize({ width: 375, height: 900 });
    await settle(page);
    expect(seen.map(String).slice(asked)).toEqual([]);

    await map.evaluate((el) => ((el as HTMLElement).hidden = false));
    // Before: nothing, the map kept its 0×0 size and its single point's empty answer.
    await expect.poll(() => seen.length).toBe(asked + 1);
    expect(span(seen.at(-1)!)).toBeCloseTo(await shownSpan(page), 0);
    await expect.poll(() => map.locator('.poruch-cluster').count()).toBeGreaterThan(0);
    await settle(page);
    expect(seen.length).toBe(asked + 1);
    await context.close();
  });
});

/*
 * The map on a host page with content after it: it takes exactly the height the loader reserved
 * (no layout shift, with or without --poruch-map-height), and its list view lists the services in
 * view as a labelled list of profile links that follows the filters, the focus never falling to
 * the page's start. On a second page a search with q drives a paired map to the same count, and
 * a host's tile attribution shows as text.
 */
describe('<poruch-map> list view, reserved height, q and tile attribution', () => {
  /** Sums the page's layout shifts from its start, and records the maps' heights at DOM ready. */
  const observeShifts = () => {
    const w = window as unknown as { __cls: number; __before: Record<string, number> };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!e.hadRecentInput) w.__cls += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    document.addEventListener('DOMContentLoaded', () => {
      w.__before = {};
      for (const el of document.querySelectorAll('poruch-map, #after')) {
        w.__before[el.id] = el.getBoundingClientRect().top + el.getBoundingClientRect().height;
      }
      w.__before.page = document.documentElement.scrollHeight;
    });
  };
  const bottoms = (page: Page) =>
    page.evaluate(() => {
      const out: Record<string, number> = {};
      for (const el of document.querySelectorAll('poruch-map, #after')) {
        out[el.id] = el.getBoundingClientRect().top + el.getBoundingClientRect().height;
      }
      out.page = document.documentElement.scrollHeight;
      return out;
    });
  /** The focused element through the shadow roots, as `tag.class`; `body` at the page's start. */
  const focusIn = (page: Page) =>
    page.evaluate(() => {
      let active = document.activeElement;
      if (!active || active === document.body) return 'body';
      while (active.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return `${active.localName}.${active.className}`;
    });

  it('takes the reserved height (CLS 0) and lists the services in view, keeping the focus', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(observeShifts);
    const page = await context.newPage();
    const lists: { url: URL; total: number; items: number }[] = [];
    // A body still being read when the test closes the page is dropped, not an unhandled rejection.
    page.on('response', (r) => {
      if (!r.url().includes('/api/v1/services?') || r.status() !== 200) return;
      r.json().then(
        (body: { total: number; items: unknown[] }) =>
          lists.push({ url: new URL(r.url()), total: body.total, items: body.items.length }),
        () => undefined,
      );
    });
    await page.goto(
      await mapHost(
        'map-list-view',
        `<h1>Diaspora</h1>
         <poruch-map id="ua" api-base="{{API}}" tile-url="none" list-view country="PL" lang="ua"></poruch-map>
         <poruch-map id="en" api-base="{{API}}" tile-url="none" list-view country="PL" lang="en_GB"
           style="--poruch-map-height: 300px"></poruch-map>
         <poruch-map id="plain" api-base="{{API}}" tile-url="none"></poruch-map>
         <p id="after">After the maps</p>`,
        true,
      ),
    );
    for (const id of ['ua', 'en', 'plain']) {
      await page.locator(`#${id}[state="ready"]`).waitFor({ timeout: 20_000 });
    }
    const mapUa = page.locator('#ua');
    const mapEn = page.locator('#en');
    await expect.poll(() => mapUa.locator('.list li').count()).toBeGreaterThan(0);
    await expect.poll(() => mapEn.locator('.list li').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#plain .poruch-cluster').count()).toBeGreaterThan(0);

    // The services search for the box the map shows, with its filters, only what is on the map.
    await expect.poll(() => lists.length).toBeGreaterThan(0);
    const asked = lists.at(-1)!;
    expect(asked.url.searchParams.get('country')).toBe('PL');
    expect(asked.url.searchParams.get('onMap')).toBe('true');
    expect(asked.url.searchParams.get('bbox')).toMatch(/^-?\d/);
    // A heading and a list named by it; each item a link to the profile, with category or place.
    const list = mapUa.getByRole('list', { name: new RegExp(ua('map.list_label')) });
    const items = list.getByRole('listitem');
    expect(await items.count()).toBe(Math.min(asked.total, 50));
    const first = items.first();
    expect(await first.getByRole('link').getAttribute('href')).toMatch(
      new RegExp(`^${server!.baseUrl}/services/[0-9a-f-]{36}$`),
    );
    expect((await first.locator('.muted').textContent())?.trim()).not.toBe('');
    expect(await mapUa.locator('.list').textContent()).not.toMatch(/Наблизити|zoom in/i);
    // More than the list holds: a count and a request to zoom in.
    expect(await mapUa.locator('.more').count()).toBe(asked.total > 50 ? 1 : 0);
    expect(await mapEn.locator('h3').textContent()).toMatch(
      /^Services in this part of the map: \d/,
    );

    // Exactly the reserved height: nothing after the maps moved.
    const before = await page.evaluate(
      () => (window as unknown as { __before: Record<string, number> }).__before,
    );
    expect(await bottoms(page)).toEqual(before);
    const heights = await page.evaluate(() =>
      ['ua', 'en', 'plain'].map((id) => document.getElementById(id)!.offsetHeight),
    );
    expect(heights).toEqual([528, 348, 528]);

    // Views switched from the keyboard: the focus stays on the toggle.
    await mapUa.locator('button.toggle').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => mapUa.locator('.list').count()).toBe(0);
    expect(await focusIn(page)).toMatch(/^button\.toggle/);
    await page.keyboard.press('Enter');
    await expect.poll(() => mapUa.locator('.list li').count()).toBeGreaterThan(0);
    expect(await focusIn(page)).toMatch(/^button\.toggle/);

    // The focused item goes with a new filter: the focus goes to the list's heading.
    await page.keyboard.press('Tab');
    expect(await focusIn(page)).toBe('a.');
    const name = await mapUa.locator('.list a').first().textContent();
    const reloaded = page.waitForResponse(
      (r) => r.url().includes('/api/v1/services?') && r.url().includes('country=DE'),
    );
    await mapUa.evaluate((el) => el.setAttribute('country', 'DE'));
    await reloaded;
    await expect.poll(() => mapUa.locator('.list a').first().textContent()).not.toBe(name);
    await expect.poll(() => focusIn(page)).toBe('h3.list-title');

    // Still no shift, the list reloaded and the views switched.
    expect(await bottoms(page)).toEqual(before);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
    await screenshot(page, 'widgets-map-list-view');
    await context.close();
  });

  it('follows a search with q to the same count, and shows a host tile attribution as text', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(
      await mapHost(
        'map-search-q',
        `<poruch-search api-base="{{API}}" channel="q" page-size="3"></poruch-search>
         <poruch-map id="paired" api-base="{{API}}" tile-url="none" channel="q" center="20,0" zoom="1"></poruch-map>
         <poruch-map id="tiles" api-base="{{API}}" tile-url="http://127.0.0.1:9/{z}/{x}/{y}.png"
           tile-attribution="&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt; Tiles &amp; Co"></poruch-map>`,
      ),
    );
    const paired = page.locator('#paired');
    await page.locator('#paired[state="ready"]').waitFor({ timeout: 20_000 });

    const searched = page.waitForResponse(
      (r) => r.url().includes('/api/v1/services?') && r.url().includes('q='),
    );
    const mapped = nextMap(
      page,
      (q) => q.get('q') === 'перукарня',
      async () => {
        const input = page.locator('poruch-search input[type="search"]');
        await input.fill('перукарня');
        await input.press('Enter');
      },
    );
    const response = await searched;
    const found = (await response.json()) as { total: number };
    const { data } = await mapped;
    expect(found.total).toBeGreaterThan(0);
    // The search's list also holds services the map cannot show (hidden by their owner, online
    // without an address): the map shows the rest, the same search with onMap.
    const onMap = (await (await fetch(`${response.url()}&onMap=true`)).json()) as { total: number };
    expect(onMap.total).toBeGreaterThan(0);
    expect(onMap.total).toBeLessThanOrEqual(found.total);
    expect(total(data)).toBe(onMap.total);
    await expect
      .poll(() => paired.locator('[role="status"]').textContent())
      .toBe(ua('widget.points_in_view', { count: onMap.total }));

    // The attribution is the host's text, not HTML.
    const attribution = page.locator('#tiles .leaflet-control-attribution');
    await expect.poll(() => attribution.textContent()).toContain('<img src=x');
    expect(await attribution.textContent()).toContain('Tiles & Co');
    expect(await attribution.locator('img').count()).toBe(0);
    expect(await paired.locator('.leaflet-control-attribution').textContent()).not.toContain(
      'OpenStreetMap',
    );
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBe(
      undefined,
    );
    await context.close();
  });
});
