import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectErrors,
  launchBrowser,
  screenshot,
  SCREENSHOT_DIR,
  WIDTHS,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { expectAccessible } from './helpers/screens.js';

/**
 * English visitors: an en-GB browser gets its first screen in English before any script runs, and
 * the app starts in it without a change of language; a chosen language (the switcher's cookie) and
 * `?lang=` beat the browser's; the locale rule's redirect home says why and switches to Ukrainian.
 */

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

const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
});

async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
    ...options,
  });
  contexts.push(context);
  await context.addInitScript(() => {
    // No cookie banner in the way; every value <html lang> takes, from the first parse on.
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
    const langs: string[] = [];
    (window as unknown as { __langs: string[] }).__langs = langs;
    const record = () => {
      const value = document.documentElement?.getAttribute('lang');
      if (value && langs.at(-1) !== value) langs.push(value);
    };
    record();
    new MutationObserver(record).observe(document, {
      attributes: true,
      attributeFilter: ['lang'],
      subtree: true,
      childList: true,
    });
  });
  return context;
}

/** The page's visible text without the language switcher (which names both languages). */
const textOf = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const root = document.querySelector(sel)?.cloneNode(true) as HTMLElement | undefined;
    root?.querySelectorAll('select, option').forEach((e) => e.remove());
    return root?.textContent ?? '';
  }, selector);

const CYRILLIC = /[\u0400-\u04FF]/;

/** Full-page PNGs at 375 and 1280 px of a page without JavaScript (the fixture's helper runs scripts). */
async function staticShots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
}

async function live(page: Page): Promise<void> {
  await page.locator('.app').waitFor();
  await page.waitForFunction(() => !document.querySelector('.page-loading'));
}

describe('the first paint in the visitor’s language', () => {
  it('an en-GB browser without JavaScript sees English pages; a Ukrainian one Ukrainian', async () => {
    const en = await (await newContext({ locale: 'en-GB', javaScriptEnabled: false })).newPage();
    for (const path of ['/', '/about', '/login']) {
      await en.goto(`${server.baseUrl}${path}`);
      expect(await en.getAttribute('html', 'lang')).toBe('en-GB');
      const text = await textOf(en, '#root');
      expect(text, path).toContain('Skip to content');
      expect(text, path).not.toMatch(CYRILLIC);
      expect(await en.title()).not.toMatch(CYRILLIC);
    }
    await en.goto(`${server.baseUrl}/`);
    expect(await en.locator('h1').first().textContent()).not.toMatch(CYRILLIC);
    expect(await en.locator('noscript').textContent()).toBe(
      'Please turn on JavaScript to use Poruch.',
    );
    await staticShots(en, 'english-first-paint-en');

    // `?lang=ua` asks for Ukrainian whatever the browser speaks.
    await en.goto(`${server.baseUrl}/about?lang=ua`);
    expect(await en.getAttribute('html', 'lang')).toBe('uk');
    expect(await textOf(en, '#root')).toContain('Перейти до змісту');

    const ua = await (await newContext({ javaScriptEnabled: false })).newPage();
    await ua.goto(`${server.baseUrl}/`);
    expect(await ua.getAttribute('html', 'lang')).toBe('uk');
    expect(await textOf(ua, '#root')).toContain('Перейти до змісту');
    await staticShots(ua, 'english-first-paint-ua');
    await ua.goto(`${server.baseUrl}/?lang=en_GB`);
    expect(await ua.getAttribute('html', 'lang')).toBe('en-GB');
  });

  it('the app starts in the language of the first paint: English stays English, Ukrainian Ukrainian', async () => {
    for (const [locale, lang, skip] of [
      ['en-GB', 'en-GB', 'Skip to content'],
      ['uk-UA', 'uk', 'Перейти до змісту'],
    ] as const) {
      const page = await (await newContext({ locale })).newPage();
      const errors = collectErrors(page);
      for (const path of ['/', '/about']) {
        await page.goto(`${server.baseUrl}${path}`);
        await live(page);
        // <html lang> never held another language, from the first byte to the live app.
        expect(await page.evaluate(() => (window as any).__langs)).toEqual([lang]);
        // The interface's texts (the header, the page's heading), not the services' own names.
        const ui = (await textOf(page, '.site-header')) + (await textOf(page, 'main h1'));
        expect(ui).toContain(skip);
        if (lang === 'en-GB') expect(ui).not.toMatch(CYRILLIC);
      }
      expect(errors).toEqual([]);
    }
  });

  it('widgets on English screens use the site’s English file, not chunks of their own', async () => {
    const page = await (await newContext({ locale: 'en-GB' })).newPage();
    const scripts: Promise<{ url: string; body: string }>[] = [];
    page.on('response', (response) => {
      if (/\/assets\/[^/]+\.js$/.test(response.url()))
        scripts.push(response.text().then((body) => ({ url: response.url(), body })));
    });
    const list = (await (await fetch(`${server.baseUrl}/api/v1/services?pageSize=1`)).json()) as {
      items: { id: string }[];
    };
    for (const path of ['/', `/services/${list.items[0]!.id}`, '/?mode=vacancies']) {
      await page.goto(`${server.baseUrl}${path}`);
      await live(page);
      await page.waitForLoadState('networkidle');
    }
    const loaded = await Promise.all(scripts);
    expect(loaded.some((s) => /\/assets\/en_GB-/.test(s.url))).toBe(true);
    // A widget's own English namespace is a chunk that only re-exports part of the language's file.
    const own = loaded.filter((s) =>
      /^export\s*\{[^}]*\}\s*from\s*"\.\/en_GB-/.test(s.body.trim()),
    );
    expect(own.map((s) => s.url)).toEqual([]);
  });

  it('a language chosen in the switcher is served from then on, over the browser’s', async () => {
    const context = await newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/about?lang=en_GB`);
    await live(page);
    await Promise.all([
      page.waitForURL(`${server.baseUrl}/about`),
      page.getByTestId('language').selectOption('ua'),
    ]);
    await live(page);
    // The reload dropped the old `?lang=` and is in Ukrainian.
    expect(await page.getAttribute('html', 'lang')).toBe('uk');
    const cookie = (await context.cookies()).find((c) => c.name === 'locale');
    expect(cookie).toMatchObject({ value: 'ua', path: '/', sameSite: 'Lax', httpOnly: false });
    // The server reads the choice: the next page's HTML is Ukrainian before any script.
    const res = await page.goto(`${server.baseUrl}/support`);
    expect(await res!.text()).toContain('<html lang="uk" data-locale="ua">');
    expect(res!.headers().vary).toMatch(/Accept-Language.*Cookie|Cookie.*Accept-Language/);
  });
});

describe('pages only in Ukrainian', () => {
  it('home says why, announced, and switches to Ukrainian to open the wanted page', async () => {
    // bypassCSP: axe-core is injected into the page.
    const page = await (await newContext({ locale: 'en-GB', bypassCSP: true })).newPage();
    const errors = collectErrors(page);
    for (const path of ['/login', '/reset-password', '/provide-help', '/dashboard/services']) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.waitForURL(`${server.baseUrl}/`);
      const notice = page.getByTestId('locale-notice');
      await notice
        .getByRole('status')
        .getByText('That page is only available in Ukrainian')
        .waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('en-GB');
    }
    await live(page);
    await expectAccessible(page);
    await screenshot(page, 'english-locale-notice');

    // Dismissed: gone. Leaving home and coming back: gone too.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByTestId('locale-notice').count()).toBe(0);
    await page.goto(`${server.baseUrl}/provide-help`);
    await page.getByTestId('locale-notice').waitFor();
    await page.locator('.site-header a[href="/about"]').first().click();
    await page.waitForURL(`${server.baseUrl}/about`);
    await page.locator('a.brand').click();
    await page.waitForURL(`${server.baseUrl}/`);
    expect(await page.getByTestId('locale-notice').count()).toBe(0);

    // The switch: Ukrainian, on the page that was wanted, with its query (without `lang`).
    await page.goto(`${server.baseUrl}/login?back=%2Fdashboard&lang=en_GB`);
    await page.waitForURL(`${server.baseUrl}/`);
    await Promise.all([
      page.waitForURL(`${server.baseUrl}/login?back=%2Fdashboard`),
      page.getByRole('button', { name: 'Switch to Ukrainian and open the page' }).click(),
    ]);
    await live(page);
    expect(await page.getAttribute('html', 'lang')).toBe('uk');
    await page.locator('[data-screen="login"], form').first().waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/login?back=%2Fdashboard`);
    expect(errors).toEqual([]);
  });
});
