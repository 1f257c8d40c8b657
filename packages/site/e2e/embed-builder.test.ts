import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, screenshot } from './fixtures/index.js';
import { startStaticServer, type StaticServer } from './fixtures/staticServer.js';
import { POLL, apiCall, expectAccessible, registerPartner, screen } from './helpers/screens.js';
import { LONG, en, startWidgetEnv, ua, waitForState, type WidgetEnv } from './helpers/widgets.js';

/*
 * The embed builder (/embed) in Chromium: a snippet built there and copied through the real
 * clipboard, pasted into a bare page on another origin, shows what the preview showed: the same
 * attributes, language, theme colours, height, view and list. The snippet's SRI is the served
 * loader's, or the browser would refuse it and the element would never be defined.
 */

let env: WidgetEnv;
/** A second foreign origin for the pasted snippets: a bare page with nothing but the snippet. */
let host: StaticServer;
let hostDir: string;
/** The demo service with the most open vacancies. */
let board: { id: string; name: string };
/** A country and a category with services on the map. */
let filter: { country: string; category: string };

beforeAll(async () => {
  env = await startWidgetEnv();
  hostDir = await mkdtemp(path.join(os.tmpdir(), 'poruch-embed-'));
  host = await startStaticServer(hostDir);
  const api = `${env.server.baseUrl}/api/v1`;
  const vacancies = (await (await fetch(`${api}/vacancies?pageSize=100`)).json()) as {
    items: { service: { id: string; name: string } }[];
  };
  const counts = new Map<string, { id: string; name: string; n: number }>();
  for (const { service } of vacancies.items) {
    counts.set(service.id, { ...service, n: (counts.get(service.id)?.n ?? 0) + 1 });
  }
  board = [...counts.values()].sort((a, b) => b.n - a.n)[0]!;
  const services = (await (await fetch(`${api}/services?country=PL&pageSize=100`)).json()) as {
    items: { category: string | null }[];
  };
  const byCategory = new Map<string, number>();
  for (const s of services.items) {
    if (s.category) byCategory.set(s.category, (byCategory.get(s.category) ?? 0) + 1);
  }
  filter = { country: 'PL', category: [...byCategory].sort((a, b) => b[1] - a[1])[0]![0] };
});

afterAll(async () => {
  await host?.stop();
  await env?.stop();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** A site context with the cookie choice made and the clipboard allowed. */
async function siteContext(locale: 'ua' | 'en_GB' = 'ua'): Promise<BrowserContext> {
  const context = await env.browser.newContext({
    viewport: { width: 1280, height: 900 },
    bypassCSP: true, // axe is injected as a script
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: env.server.baseUrl,
  });
  await context.addInitScript((locale) => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
    localStorage.setItem('locale', locale);
  }, locale);
  return context;
}

const snippetArea = (page: Page) => page.getByRole('textbox', { name: ua('embed.snippet') });

/** Presses Copy, waits for "Copied" and returns the clipboard, which is the text area's snippet. */
async function copySnippet(page: Page): Promise<string> {
  await page.getByRole('button', { name: ua('embed.copy') }).click();
  await page.getByText(ua('embed.copied'), { exact: true }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await snippetArea(page).inputValue());
  return copied;
}

/** Writes the snippet into a bare page on the other origin, `width` wide, and opens it. */
async function paste(name: string, snippet: string, width: number): Promise<Page> {
  await writeFile(
    path.join(hostDir, `${name}.html`),
    `<!doctype html><html lang="uk"><head><meta charset="utf-8"><title>${name}</title>` +
      `<link rel="icon" href="data:,"></head><body><div style="width:${width}px">${snippet}</div></body></html>`,
  );
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${host.origin}/${name}.html`);
  return page;
}

/** The element's attributes, without the `state` it writes itself. */
const attributesOf = (el: Locator) =>
  el.evaluate((node) =>
    Object.fromEntries(
      node
        .getAttributeNames()
        .filter((n) => n !== 'state')
        .map((n) => [n, node.getAttribute(n)]),
    ),
  );

/** The colours and font of the widget's themed root (inside its shadow root), and its theme. */
const themeOf = (el: Locator) =>
  el
    .locator('.poruch-root')
    .first()
    .evaluate((root) => {
      const style = getComputedStyle(root);
      return {
        theme: root.getAttribute('data-theme'),
        color: style.color,
        background: style.backgroundColor,
        font: style.fontFamily,
      };
    });

/** The loader's SRI from the bytes the server sends, as a browser checks it. */
async function servedIntegrity(url: string): Promise<string> {
  const body = Buffer.from(await (await fetch(url)).arrayBuffer());
  return `sha384-${createHash('sha384').update(body).digest('base64')}`;
}

/** The loader's URL and integrity written in a snippet. */
function loaderOf(snippet: string): { src: string; integrity: string } {
  const tag = snippet.match(/<script ([^>]*)><\/script>/)?.[1] ?? '';
  const attr = (name: string) => tag.match(new RegExp(`${name}="([^"]*)"`))?.[1] ?? '';
  return { src: attr('src'), integrity: attr('integrity') };
}

describe('the embed builder', () => {
  it('builds a map snippet that shows the preview on another origin, with a matching SRI', async () => {
    const context = await siteContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${env.server.baseUrl}/embed`);
    await screen(page, 'embed');
    const preview = page.getByTestId('embed-preview').locator('poruch-map');
    await waitForState(page, '[data-testid="embed-preview"] > poruch-map');

    await page.getByLabel(ua('embed.country')).selectOption(filter.country);
    await page.getByLabel(ua('embed.category')).selectOption(filter.category);
    await page.getByLabel(ua('embed.theme')).selectOption('dark');
    await page.getByLabel(ua('embed.lang')).selectOption('en_GB');
    await page.getByLabel(ua('embed.height')).fill('520');
    // The start view, on the preview map itself: two steps in, then a pan with the keyboard.
    const zoomIn = preview.locator('.leaflet-control-zoom-in');
    await zoomIn.click();
    await expect.poll(() => snippetArea(page).inputValue(), POLL).toContain('zoom="5"');
    await zoomIn.click();
    await expect.poll(() => snippetArea(page).inputValue(), POLL).toContain('zoom="6"');
    const before = await snippetArea(page).inputValue();
    await preview.locator('.leaflet-container').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => snippetArea(page).inputValue(), POLL).not.toBe(before);
    expect(await snippetArea(page).inputValue()).toContain('zoom="6"');
    // The view is told in words (a parameter named `lng` would switch i18next's language).
    const viewText = await page.locator('.embed__view').textContent();
    expect(viewText).toMatch(/\d+\.\d\d, \d+\.\d\d/);
    expect(await page.locator('body').textContent()).not.toContain('Missing translation');
    await waitForState(page, '[data-testid="embed-preview"] > poruch-map');

    const snippet = await copySnippet(page);
    const previewAttrs = await attributesOf(preview);
    expect(previewAttrs).toEqual({
      lang: 'en_GB',
      theme: 'dark',
      country: filter.country,
      category: filter.category,
      center: expect.stringMatching(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/),
      zoom: '6',
      style: '--poruch-map-height: 520px',
    });
    // The SRI is the served loader's, at the exact version /env names.
    const loader = loaderOf(snippet);
    const { widgets } = (await (await fetch(`${env.server.baseUrl}/env`)).json()) as {
      widgets: { loader: string; integrity: string; version: string };
    };
    expect(loader).toEqual({ src: widgets.loader, integrity: widgets.integrity });
    expect(loader.src).toContain(`/widgets/${widgets.version}/poruch.js`);
    expect(loader.integrity).toBe(await servedIntegrity(loader.src));
    expect(snippet).toContain('crossorigin="anonymous"');

    const previewWidth = (await preview.boundingBox())!.width;
    const pasted = await paste('embed-map', snippet, previewWidth);
    const pastedErrors = collectErrors(pasted);
    await pasted.waitForFunction(() => customElements.get('poruch-map') !== undefined, null, {
      timeout: LONG,
    });
    await waitForState(pasted, 'poruch-map');
    const element = pasted.locator('poruch-map');
    expect(await attributesOf(element)).toEqual(previewAttrs);
    // Same language, filters and view: the same count in the same words.
    const status = (el: Locator) => el.locator('[part~="toolbar"] [role="status"]').textContent();
    await expect
      .poll(async () => (await status(element)) === (await status(preview)), POLL)
      .toBe(true);
    expect(await status(element)).toMatch(/\d/);
    expect(await element.locator('[part~="toggle"]').textContent()).toBe(en('widget.show_list'));
    // Same theme colours, and the dark theme's.
    const theme = await themeOf(element);
    expect(theme).toEqual(await themeOf(preview));
    expect(theme.theme).toBe('dark');
    // Same height.
    const mapHeight = async (el: Locator) => (await el.locator('.map').boundingBox())!.height;
    expect(await mapHeight(element)).toBe(520);
    expect(await mapHeight(preview)).toBe(520);
    expect(pastedErrors).toEqual([]);
    await pasted.close();

    await expectAccessible(page);
    expect(errors).toEqual([]);
    await screenshot(page, 'embed-builder-map');
    await context.close();
  });

  it('builds a vacancy board for a service found by name, in English too', async () => {
    const context = await siteContext('en_GB');
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/embed`);
    await screen(page, 'embed');
    await page.getByRole('radio', { name: en('embed.widget_vacancies') }).check();
    await page.getByRole('searchbox', { name: en('embed.service') }).fill(board.name);
    await page
      .locator('.embed__result')
      .filter({ has: page.getByText(board.name, { exact: true }) })
      .first()
      .click();
    // The focus moves to what replaced the results, not to the page start.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), POLL)
      .toBe(en('embed.service_change'));
    await page.getByLabel(en('embed.theme')).selectOption('auto');
    await page.getByLabel(en('embed.lang')).selectOption('ua');
    const preview = page.getByTestId('embed-preview').locator('poruch-vacancies');
    await expect.poll(() => preview.getAttribute('service-id'), POLL).toBe(board.id);
    await waitForState(page, '[data-testid="embed-preview"] > poruch-vacancies');

    await page.getByRole('button', { name: en('embed.copy') }).click();
    await page.getByText(en('embed.copied'), { exact: true }).waitFor();
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toContain(`service-id="${board.id}"`);
    const previewAttrs = await attributesOf(preview);
    expect(previewAttrs).toEqual({ lang: 'ua', theme: 'auto', 'service-id': board.id });
    // A browser that refuses the clipboard: the snippet is selected to copy by hand.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () =>
        Promise.reject(new DOMException('refused', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: en('embed.copy') }).click();
    await page.getByText(en('embed.copy_blocked')).waitFor();
    expect(
      await page.evaluate(() => {
        const area = document.activeElement as HTMLTextAreaElement;
        return area.value.slice(area.selectionStart, area.selectionEnd);
      }),
    ).toBe(snippet);
    const names = (el: Locator) => el.locator('.vacancy__name').allTextContents();
    const shown = await names(preview);
    expect(shown.length).toBeGreaterThan(0);

    const pasted = await paste('embed-vacancies', snippet, (await preview.boundingBox())!.width);
    await pasted.waitForFunction(() => customElements.get('poruch-vacancies') !== undefined, null, {
      timeout: LONG,
    });
    await waitForState(pasted, 'poruch-vacancies');
    const element = pasted.locator('poruch-vacancies');
    expect(await attributesOf(element)).toEqual(previewAttrs);
    expect(await names(element)).toEqual(shown);
    expect(await themeOf(element)).toEqual(await themeOf(preview));
    await pasted.close();

    await expectAccessible(page);
    await screenshot(page, 'embed-builder-vacancies-en');
    await context.close();
  });

  it("gives a logged-in partner their own board's snippet in one click from the dashboard", async () => {
    const admin = await env.browser.newContext();
    const context = await siteContext();
    const { service } = await registerPartner(
      context,
      env.server.baseUrl,
      'embed-partner@poruch.test',
      'partner-pass-42',
      'Перукарня «Вставка»',
    );
    await apiCall(admin, env.server.baseUrl, 'POST', 'auth/login', env.admin);
    await apiCall(admin, env.server.baseUrl, 'POST', `admin/services/${service.id}/approve`, {});
    await admin.close();

    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/dashboard/services`);
    const action = page.getByRole('link', { name: ua('my_services.embed_vacancies') });
    await action.waitFor();
    await screenshot(page, 'embed-dashboard-action');
    await action.click();
    await screen(page, 'embed');
    expect(await page.getByRole('radio', { name: ua('embed.widget_vacancies') }).isChecked()).toBe(
      true,
    );
    await page.getByText('Перукарня «Вставка»').waitFor();
    await waitForState(page, '[data-testid="embed-preview"] > poruch-vacancies');
    const snippet = await copySnippet(page);
    expect(snippet).toContain(
      `<poruch-vacancies lang="ua" theme="light" service-id="${service.id}"></poruch-vacancies>`,
    );
    await context.close();
  });
});
