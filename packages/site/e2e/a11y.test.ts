/**
 * axe-core on every screen of the shell: home (map and list, services and vacancies), about,
 * store, support, privacy-policy, disclaimer, the login page, the cookie preferences dialog, the
 * confirm dialog, the open mobile menu and a stack of toasts. No serious or critical violation
 * is allowed. The server's CSP blocks injected scripts, so the pages bypass it (axe is added as a
 * script tag). Also screenshots the screens at 375px and 1280px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type RunningServer } from './fixtures/index.js';
import { openApp, seriousViolations, ua } from './helpers/screens.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface PageOptions {
  width?: 375 | 1280;
  /** Store a cookie decision, so the banner is gone. Defaults to true. */
  decided?: boolean;
}

async function newPage({ width = 1280, decided = true }: PageOptions = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width, height: width === 375 ? 812 : 800 },
    bypassCSP: true,
    serviceWorkers: 'block',
  });
  // Map tiles come from the internet, which the suite does not use.
  await page.route(/tile\.openstreetmap\.org/, (r) => r.abort());
  await page.addInitScript((decided: boolean) => {
    localStorage.setItem('poruch_e2e', '1');
    if (decided) {
      localStorage.setItem('cookies_banner_essentials', 'true');
      localStorage.setItem('cookies_banner_marketing', 'false');
    }
  }, decided);
  return page;
}

const open = (page: Page, url: string) => openApp(page, `${server.baseUrl}${url}`);

const SCREENS: { name: string; url: string; ready: string }[] = [
  { name: 'home', url: '/', ready: '[data-testid="results"], .empty' },
  { name: 'home-list', url: '/?view=list', ready: '[data-testid="results"], .empty' },
  {
    name: 'home-vacancies',
    url: '/?mode=vacancies&view=list',
    ready: '[data-testid="results"], .empty',
  },
  { name: 'about', url: '/about', ready: 'h1' },
  { name: 'store', url: '/store', ready: 'h1' },
  { name: 'support', url: '/support', ready: 'h1' },
  { name: 'privacy-policy', url: '/privacy-policy', ready: 'h1' },
  { name: 'disclaimer', url: '/disclaimer', ready: 'h1' },
  { name: 'login', url: '/login', ready: 'form' },
];

describe('axe: no serious or critical violations', () => {
  for (const s of SCREENS) {
    it(s.name, async () => {
      const page = await newPage();
      await open(page, s.url);
      await page.locator(s.ready).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `a11y-${s.name}`);
      await page.close();
    });
  }

  it('home map: the map widget is shown and checked too', async () => {
    const page = await newPage();
    await open(page, '/');
    // The widget's status line (inside its shadow root) says how many points are in view.
    await page.getByTestId('map-view').getByRole('status').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('cookie banner and the preferences dialog', async () => {
    const page = await newPage({ width: 375, decided: false });
    await open(page, '/about');
    await page.getByRole('button', { name: ua('cookies.preferences') }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: ua('cookies.preferences') }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'a11y-cookie-preferences');
    await page.close();
  });

  it('the confirm dialog', async () => {
    const page = await newPage();
    await open(page, '/about');
    await page.evaluate(() => {
      void (
        window as unknown as { __poruch: { confirm(o: { message: string }): Promise<unknown> } }
      ).__poruch.confirm({ message: 'Точно?' });
    });
    await page.getByRole('alertdialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'a11y-confirm');
    await page.close();
  });

  it('the open mobile menu', async () => {
    const page = await newPage({ width: 375 });
    await open(page, '/about');
    await page.getByRole('button', { name: ua('menu.open') }).click();
    await page
      .getByRole('navigation')
      .getByRole('link', { name: ua('menu.about') })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'a11y-menu-open');
    await page.close();
  });

  it('toasts: at most three show, above the cookie banner', async () => {
    const page = await newPage({ width: 375, decided: false });
    await open(page, '/about');
    await page.evaluate(() => {
      const s = (
        window as unknown as {
          __poruch: { showToast(t: { severity: string; summary: string; detail?: string }): void };
        }
      ).__poruch;
      for (let i = 1; i <= 5; i++)
        s.showToast({ severity: 'success', summary: `Toast ${i}`, detail: 'Готово' });
    });
    await page.locator('.toast').nth(2).waitFor();
    expect(await page.locator('.toast').count()).toBe(3);
    // The newest three, in order.
    expect(await page.locator('.toast__summary').allTextContents()).toEqual([
      'Toast 3',
      'Toast 4',
      'Toast 5',
    ]);
    const toasts = (await page.getByTestId('toasts').boundingBox())!;
    const banner = (await page.locator('.cookie-banner').boundingBox())!;
    expect(toasts.y + toasts.height).toBeLessThanOrEqual(banner.y);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'a11y-toasts');
    await page.close();
  });
});
