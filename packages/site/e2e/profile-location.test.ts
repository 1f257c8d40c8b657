/**
 * The service's location on its profile (screens/profile/ProfileLocation.tsx): the address as
 * text, a static map with the marker on the offline base layer (the map tiles fail here, as they
 * do on a machine without internet), "Show on the map" landing on home's map centred on the
 * service, the maps-app link per kind of device, and no section for an online-only service.
 * One server and one browser for the file; needs `pnpm build` (server and site).
 */
import { createServer } from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n, translator } from '@poruch/core';
import { openDatabase, seedServiceRows } from '@poruch/server/testing';
import {
  freePort,
  launchBrowser,
  makeDataDir,
  screenshot,
  SCREENSHOT_DIR,
  startServer,
  WIDTHS,
  type RunningServer,
} from './fixtures/index.js';
import { expectAccessible, ua } from './helpers/screens.js';

const en = translator(createI18n('en_GB'));

/** User-written text that would be markup if it were not escaped. */
const NAME = 'Салон <b>«Коса»</b> & (Ко)';
const ADDRESS = 'ul. Marszałkowska 10 <img src=x onerror="window.__xss=1">, Warszawa';
const AT = { lat: 52.2297, lng: 21.0122 };

/** A 1×1 PNG: the tile the map server answers when the test lets tiles load. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('profile location', () => {
  let server: RunningServer;
  let browser: Browser;
  const ids = { onMap: '', online: '', hidden: '' };

  beforeAll(async () => {
    const launched = launchBrowser();
    const dataDir = await makeDataDir();
    // Approved rows written straight into the embedded database, before the server starts (it
    // allows one process).
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    try {
      const base = {
        countryCode: 'PL',
        category: 'beauty_and_health' as const,
        descriptionOther: 'A hair salon in the centre of Warsaw',
        status: 'approved' as const,
      };
      [ids.onMap, ids.online, ids.hidden] = (await seedServiceRows(database.db, [
        {
          ...base,
          name: NAME,
          address: ADDRESS,
          addressDetails: {
            ...AT,
            displayName: 'Warszawa, PL',
            city: 'Warszawa',
            countryCode: 'PL',
            approximate: false,
            source: 'gazetteer',
          },
          ...AT,
          // A long description: the map starts below a phone's first screen.
          descriptionUa: 'Стрижки, фарбування та укладки для всієї родини. '.repeat(30).trim(),
          showOnMap: true,
        },
        { ...base, name: 'Онлайн-курси польської', address: '', isOnline: true, showOnMap: false },
        {
          ...base,
          name: 'Юрист «Вдома»',
          address: 'ul. Długa 5, Gdańsk',
          lat: 54.35,
          lng: 18.65,
          showOnMap: false,
        },
      ])) as [string, string, string];
    } finally {
      await database.close();
    }
    // OpenStreetMap's tiles (the fixture's default is none): the contexts below make them fail,
    // or answer them.
    server = await startServer({
      dataDir,
      env: { SEED_DEMO: 'false', TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' },
    });
    browser = await launched;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A context whose map tiles fail, with the cookie choice made. */
  async function context(options: { userAgent?: string; width?: number; tiles?: boolean } = {}) {
    const width = options.width ?? 1280;
    const ctx = await browser.newContext({
      viewport: { width, height: width < 800 ? 812 : 800 },
      bypassCSP: true,
      ...(options.userAgent
        ? { userAgent: options.userAgent, isMobile: true, hasTouch: true }
        : {}),
    });
    await ctx.route(/tile\.openstreetmap\.org/, (route) =>
      options.tiles
        ? route.fulfill({ contentType: 'image/png', body: Buffer.from(PNG, 'base64') })
        : route.abort(),
    );
    await ctx.addInitScript(() => {
      localStorage.setItem('cookies_banner_essentials', 'true');
      localStorage.setItem('cookies_banner_marketing', 'false');
    });
    return ctx;
  }

  async function openProfile(ctx: BrowserContext, url: string, name: string): Promise<Page> {
    const page = await ctx.newPage();
    await page.goto(`${server.baseUrl}${url}`);
    await page.locator('[data-screen="profile"]').waitFor();
    await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
    return page;
  }

  const section = (page: Page) => page.getByTestId('location');

  it('shows the address as text and a static map with the marker on the offline base layer, loaded when near the screen', async () => {
    const ctx = await context({ width: 375 });
    const page = await ctx.newPage();
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/\/StaticMap-[\w-]+\.js$/.test(r.url())) chunks.push(r.url());
    });
    await page.goto(`${server.baseUrl}/services/${ids.onMap}`);
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor({ timeout: 15_000 });
    const location = section(page);
    await location.getByRole('heading', { level: 2, name: ua('profile_location.title') }).waitFor();
    // Escaped: the markup is the text, no element was made of it.
    expect(await location.locator('.profile-location__address').textContent()).toBe(ADDRESS);
    expect(await location.locator('img').count()).toBe(0);
    // It shows inside the services tab's panel, after the description and above the report
    // button: the page's own nodes, assigned to the widget's slot there.
    const placed = await location.evaluate((el) => {
      const slot = el.parentElement!.assignedSlot;
      const report =
        slot?.getRootNode() instanceof ShadowRoot
          ? (slot.getRootNode() as ShadowRoot).querySelector('[part~="report-button"]')
          : null;
      return {
        panel: slot?.closest('[part~="tabpanel"]')?.getAttribute('aria-label'),
        aboveReport:
          !!report && el.getBoundingClientRect().bottom <= report.getBoundingClientRect().top,
      };
    });
    expect(placed).toEqual({ panel: ua('service_profile.tab_services'), aboveReport: true });

    // The map's box is reserved; below the first screen of a phone, its picture is not loaded.
    const box = location.locator('.profile-location__map');
    expect((await box.boundingBox())!.height).toBe(192);
    const top = await box.evaluate((el) => el.getBoundingClientRect().top - innerHeight);
    expect(top).toBeGreaterThan(200);
    expect(await box.locator('svg').count()).toBe(0);
    expect(chunks).toEqual([]);
    await box.scrollIntoViewIfNeeded();
    const map = page.getByRole('img', {
      name: ua('profile_location.map_label', { name: NAME, address: ADDRESS }),
    });
    await map.waitFor();
    expect(chunks).toHaveLength(1);
    expect((await box.boundingBox())!.height).toBe(192);

    // The tiles failed and are not drawn: the base layer's country shapes show under the marker.
    await page.waitForLoadState('networkidle');
    expect(await map.locator('image').count()).toBe(0);
    const base = await map.locator('.static-map__base').getAttribute('d');
    expect(base!.length).toBeGreaterThan(1000);
    expect(await location.locator('.profile-location__attribution').count()).toBe(0);
    // The marker's tip is the middle of the box, and beside it the base layer's country shape
    // (Warsaw is on land), not the sea. Measured in one frame: the page may still be scrolling.
    const drawn = await box.evaluate((el) => {
      const frame = el.getBoundingClientRect();
      const pin = el.querySelector('.static-map__marker path')!.getBoundingClientRect();
      const [x, y] = [frame.x + frame.width / 2, frame.y + frame.height / 2];
      return {
        dx: pin.x + pin.width / 2 - x,
        dy: pin.bottom - y,
        beside: document.elementFromPoint(x + 40, y + 20)?.getAttribute('class'),
      };
    });
    expect(Math.abs(drawn.dx)).toBeLessThan(1.5);
    expect(Math.abs(drawn.dy)).toBeLessThan(1.5);
    expect(drawn.beside).toBe('static-map__base');
    // A picture, not a control: nothing in it takes the focus.
    expect(
      await box.evaluate(
        (el) => el.querySelectorAll('a, button, [tabindex], svg[focusable="true"]').length,
      ),
    ).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    await expectAccessible(page);
    await screenshot(page, 'profile-location-ua');
    // Other tabs have no location section.
    await page.getByRole('link', { name: ua('service_profile.tab_contacts') }).click();
    await page.waitForURL(/\/contacts$/);
    expect(await section(page).count()).toBe(0);
    await ctx.close();
  });

  it('in English, and "Show on the map" opens home centred on the service with its marker', async () => {
    const ctx = await context();
    const page = await openProfile(ctx, `/services/${ids.onMap}?lang=en_GB`, NAME);
    const location = section(page);
    await location.getByRole('heading', { level: 2, name: en('profile_location.title') }).waitFor();
    await page
      .getByRole('img', {
        name: en('profile_location.map_label', { name: NAME, address: ADDRESS }),
      })
      .waitFor();
    const osm = location.getByRole('link', { name: en('profile_location.open_osm') });
    expect(await osm.getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=52.2297&mlon=21.0122#map=17/52.2297/21.0122',
    );
    await expectAccessible(page);
    await screenshot(page, 'profile-location-en');

    await location.getByRole('link', { name: en('profile_location.show_on_map') }).click();
    await page.locator('[data-screen="home"]').waitFor();
    expect(new URL(page.url()).search).toBe('?center=52.2297,21.0122&zoom=17');
    const mapEl = page.getByTestId('map-view').locator('.map');
    await mapEl.scrollIntoViewIfNeeded();
    // The service is a marker of its own, at the middle of the map.
    const marker = page.getByTestId('map-view').getByRole('button', { name: NAME });
    await marker.waitFor({ timeout: 15_000 });
    const [m, pin] = [(await mapEl.boundingBox())!, (await marker.boundingBox())!];
    expect(Math.abs(pin.x + pin.width / 2 - (m.x + m.width / 2))).toBeLessThan(2);
    expect(Math.abs(pin.y + pin.height - (m.y + m.height / 2))).toBeLessThan(2);
    // Each width after the map has settled at it (its renderer follows a resize after a pause).
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 800 ? 812 : 800 });
      await page.waitForTimeout(500);
      await page.screenshot({
        path: path.join(SCREENSHOT_DIR, `profile-location-home-en-${width}.png`),
        fullPage: true,
      });
    }
    await ctx.close();
  });

  it('opens the place in the maps app of the device: geo: on Android, Apple Maps on iPhone', async () => {
    const android = await context({ userAgent: ANDROID, width: 375 });
    let page = await openProfile(android, `/services/${ids.onMap}`, NAME);
    let link = section(page).getByRole('link', { name: ua('profile_location.open_app') });
    const geo = (await link.getAttribute('href'))!;
    expect(geo.startsWith('geo:52.2297,21.0122?q=52.2297,21.0122(')).toBe(true);
    expect(decodeURIComponent(geo.slice(geo.indexOf('(') + 1, -1))).toBe(NAME);
    expect(await link.getAttribute('target')).toBeNull();
    await android.close();

    // Here the tiles load: the static map draws them, and their attribution.
    const iphone = await context({ userAgent: IPHONE, width: 375, tiles: true });
    page = await openProfile(iphone, `/services/${ids.onMap}?lang=en_GB`, NAME);
    link = section(page).getByRole('link', { name: en('profile_location.open_app') });
    const apple = new URL((await link.getAttribute('href'))!);
    expect(apple.origin).toBe('https://maps.apple.com');
    expect(apple.searchParams.get('ll')).toBe('52.2297,21.0122');
    expect(apple.searchParams.get('q')).toBe(NAME);
    const box = section(page).locator('.profile-location__map');
    await box.scrollIntoViewIfNeeded();
    await box.getByText(en('map.attribution')).waitFor();
    const tiles = await box
      .locator('image')
      .evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(tiles.length).toBeGreaterThan(0);
    for (const href of tiles)
      expect(href).toMatch(/^https:\/\/tile\.openstreetmap\.org\/5\/\d+\/\d+\.png$/);
    await iphone.close();
  });

  it('an online-only service has no location section; one hidden from the map its address only', async () => {
    const ctx = await context();
    // Every layout shift of the page: the location comes with the profile, so the report button
    // under it never moves once drawn.
    await ctx.addInitScript(() => {
      const w = window as unknown as { __shifts: number[] };
      w.__shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number })[])
          w.__shifts.push(e.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    let page = await openProfile(ctx, `/services/${ids.online}`, 'Онлайн-курси польської');
    // The profile is drawn (its tabs are there) and no location section came with it.
    await page.getByRole('link', { name: ua('service_profile.tab_contacts') }).waitFor();
    expect(await section(page).count()).toBe(0);
    expect(await page.locator('.static-map, .profile-location__map').count()).toBe(0);
    await screenshot(page, 'profile-location-online');

    page = await openProfile(ctx, `/services/${ids.hidden}?lang=en_GB`, 'Юрист «Вдома»');
    const location = section(page);
    await location.locator('.profile-location__address').waitFor();
    expect(await location.locator('.profile-location__address').textContent()).toBe(
      'ul. Długa 5, Gdańsk',
    );
    expect(await location.locator('.profile-location__map').count()).toBe(0);
    expect(
      await location.getByRole('link', { name: en('profile_location.show_on_map') }).count(),
    ).toBe(0);
    const osm = new URL(
      (await location
        .getByRole('link', { name: en('profile_location.open_osm') })
        .getAttribute('href'))!,
    );
    expect(osm.pathname).toBe('/search');
    expect(osm.searchParams.get('query')).toBe('ul. Długa 5, Gdańsk');
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    expect(
      await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts),
    ).toEqual([]);
    await screenshot(page, 'profile-location-hidden-en');
    await ctx.close();
  });

  it('nothing moves when the page arrives in parts and is painted before it is all parsed', async () => {
    // A slow phone or network paints what it has parsed so far (here: the page stops for a
    // moment after the header menu's links, or after the profile's flag before its country's
    // name) and the app replaces it later: what arrives after must not move what was painted.
    // Every shift is kept with what moved, for the failure message.
    const shifts: string[] = [];
    for (const [id, query, width, after] of [
      [ids.hidden, '?lang=en_GB', 1280, '</ul>'],
      [ids.onMap, '', 1280, '/pl.svg">'],
      [ids.online, '?lang=en_GB', 375, '/pl.svg">'],
    ] as const) {
      const proxy = await pausingProxy(server.baseUrl, `/services/${id}`, after);
      const ctx = await context({ width });
      await ctx.addInitScript(() => {
        const w = window as unknown as { __shifts: string[] };
        w.__shifts = [];
        const name = (node: Node | null) =>
          node instanceof Element
            ? `${node.localName}.${node.getAttribute('class') ?? ''}`
            : `${node?.nodeName ?? 'a removed node'}`;
        const rect = (r: DOMRectReadOnly) => `(${r.x},${r.y} ${r.width}x${r.height})`;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & {
            value: number;
            sources: { node: Node | null; previousRect: DOMRect; currentRect: DOMRect }[];
          })[])
            w.__shifts.push(
              `${e.value.toFixed(5)}: ${e.sources
                .map((s) => `${name(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`)
                .join('; ')}`,
            );
        }).observe({ type: 'layout-shift', buffered: true });
      });
      try {
        const page = await ctx.newPage();
        await page.goto(`${proxy.origin}/services/${id}${query}`);
        // The app has replaced the first screen, and the login state is known (no request left).
        await page.locator('[data-screen="profile"]').waitFor();
        await page.waitForLoadState('networkidle');
        await page.evaluate(
          () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
        );
        expect(proxy.paused(), 'the page was sent in two parts').toBe(true);
        for (const s of await page.evaluate(
          () => (window as unknown as { __shifts: string[] }).__shifts,
        ))
          shifts.push(`${query || 'ua'} ${width}px, paused after ${after}: ${s}`);
      } finally {
        await ctx.close();
        await proxy.stop();
      }
    }
    expect(shifts).toEqual([]);
  });
});

/**
 * A proxy in front of the server on another loopback port that sends the page at `pagePath` in
 * two parts, half a second apart: up to and including the first `after` in its HTML, then the
 * rest (a slow network's pause, long enough for the browser to paint the first part). Every
 * other request is passed through as it is.
 */
async function pausingProxy(target: string, pagePath: string, after: string) {
  let paused = false;
  const port = await freePort();
  const proxy = createServer((req, res) => {
    void (async () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'accept-encoding') headers.set(k, v);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body =
        req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body,
        redirect: 'manual',
      });
      const out = Buffer.from(await answer.arrayBuffer());
      const kept: Record<string, string[]> = {};
      answer.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k))
          (kept[k] ??= []).push(v);
      });
      // Several Set-Cookie headers stay several.
      const cookies = answer.headers.getSetCookie();
      if (cookies.length) kept['set-cookie'] = cookies;
      res.writeHead(answer.status, kept);
      const at = out.indexOf(after);
      if (new URL(req.url ?? '/', target).pathname !== pagePath || at < 0) {
        res.end(out);
        return;
      }
      res.write(out.subarray(0, at + after.length));
      paused = true;
      await new Promise((r) => setTimeout(r, 500));
      res.end(out.subarray(at + after.length));
    })().catch((err: unknown) => res.destroy(err as Error));
  });
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    paused: () => paused,
    stop: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
