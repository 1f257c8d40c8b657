import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, REPO_ROOT, screenshot } from './fixtures/index.js';
import { startStaticServer, type StaticServer } from './fixtures/staticServer.js';
import {
  credentialedControl,
  LONG,
  PLANTED_COOKIE,
  plantCookie,
  startWidgetEnv,
  ua,
  type WidgetEnv,
} from './helpers/widgets.js';

/**
 * Every widget on one page of another origin that sends the Content Security Policy of
 * docs/embedding.md's recipe (read from the doc, so the two cannot drift): nothing is blocked,
 * every widget has the size it has without the policy, no request to the Poruch site carries
 * or gets a cookie, and the page's storage holds exactly the keys the doc lists.
 */

const DOC = path.join(REPO_ROOT, 'docs', 'embedding.md');
/** A 1×1 transparent PNG: every tile of the map (the offline base layer shows through). */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=',
  'base64',
);

let env: WidgetEnv;
let dir: string;
/** The host pages: `plain.html`, and `csp.html` with the policy as a header. */
let host: StaticServer;
/** A tile server of a third origin, with CORS as tile hosts answer (the map's tiles are CORS). */
let tiles: StaticServer;
let policy: string;
/** The localStorage keys docs/embedding.md's "What the widgets store" lists. */
let documentedKeys: string[];

/** The recipe's policy, one header line, its example origins replaced by the test's. */
function recipe(doc: string, poruch: string, tileHost: string): string {
  const block = /```csp\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/embedding.md has no ```csp block');
  expect(block).toContain('https://poruch.org');
  expect(block).toContain('https://tile.openstreetmap.org');
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ')
    .replaceAll('https://poruch.org', poruch)
    .replaceAll('https://tile.openstreetmap.org', tileHost);
}

function storedKeys(doc: string): string[] {
  const section = doc.split('\n## What the widgets store\n')[1]?.split('\n## ')[0] ?? '';
  return [...new Set([...section.matchAll(/`(poruch:[\w-]+)`/g)].map((m) => m[1]!))].sort();
}

const TAGS = [
  'poruch-service',
  'poruch-map',
  'poruch-search',
  'poruch-vacancies',
  'poruch-report',
  'poruch-dashboard',
] as const;

beforeAll(async () => {
  env = await startWidgetEnv();
  const res = await fetch(`${env.server.baseUrl}/api/v1/vacancies?pageSize=1`);
  const serviceId = ((await res.json()) as { items: { service: { id: string } }[] }).items[0]!
    .service.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'poruch-csp-'));
  tiles = await startStaticServer(dir, () => ({ 'access-control-allow-origin': '*' }));
  const doc = await readFile(DOC, 'utf8');
  policy = recipe(doc, env.server.baseUrl, tiles.origin);
  documentedKeys = storedKeys(doc);
  host = await startStaticServer(dir, (pathname): Record<string, string> =>
    pathname === '/csp.html' ? { 'content-security-policy': policy } : {},
  );
  const api = env.server.baseUrl;
  const body = [
    `<poruch-service api-base="${api}" service-id="${serviceId}"></poruch-service>`,
    `<poruch-map api-base="${api}" tile-url="${tiles.origin}/tile.png?{z}/{x}/{y}"></poruch-map>`,
    `<poruch-search api-base="${api}" page-size="3" alerts></poruch-search>`,
    `<poruch-vacancies api-base="${api}" page-size="3" alerts></poruch-vacancies>`,
    `<poruch-report api-base="${api}" service-id="${serviceId}"></poruch-report>`,
    `<poruch-dashboard api-base="${api}"></poruch-dashboard>`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="uk">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Host page under a strict CSP</title>
    <link rel="icon" href="/tile.png" />
    <script type="module" src="${api}/widgets/v0/poruch.js"></script>
  </head>
  <body>
    <main>
      <h1>Host page</h1>
      ${body}
    </main>
  </body>
</html>`;
  await writeFile(path.join(dir, 'plain.html'), html);
  await writeFile(path.join(dir, 'csp.html'), html);
  await writeFile(path.join(dir, 'tile.png'), TILE);
});

afterAll(async () => {
  await host?.stop();
  await tiles?.stop();
  await env?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A request of the page to the Poruch site: the Cookie it carried, the Set-Cookie it got. */
interface Sent {
  url: string;
  cookie?: string;
  setCookie?: string;
}

interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
  /** The page's own answer's Content-Security-Policy header. */
  csp: string | undefined;
  /** Every request to the Poruch site so far, once it finished. */
  sent(): Promise<Sent[]>;
}

/**
 * Opens a host page in a fresh context that holds a cookie of the Poruch site, records policy
 * violations, every key written to storage and every request to the Poruch site, and waits
 * until every widget is ready and the map shows its clusters and tiles. The host is on the same
 * site as the Poruch site (another port), so a request with credentials would carry the cookie.
 */
async function open(name: 'plain' | 'csp'): Promise<Opened> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await plantCookie(context, env.server.baseUrl);
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[]; __written: string[] };
    w.__violations = [];
    w.__written = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sample} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    );
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      w.__written.push(key);
      setItem.call(this, key, value);
    };
  });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const pending: Promise<Sent>[] = [];
  page.on('requestfinished', (req) => {
    if (!req.url().startsWith(env.server.baseUrl)) return;
    pending.push(
      (async () => {
        const response = await req.response();
        return {
          url: req.url(),
          cookie: (await req.allHeaders()).cookie,
          setCookie: response ? (await response.allHeaders())['set-cookie'] : undefined,
        };
      })(),
    );
  });
  const answer = await page.goto(`${host.origin}/${name}.html`);
  await page
    .waitForFunction(
      (tags) => tags.every((t) => document.querySelector(t)?.getAttribute('state') === 'ready'),
      [...TAGS],
      { timeout: LONG },
    )
    .catch(async (e: unknown) => {
      const states = await page.evaluate(
        (tags) => tags.map((t) => `${t}: ${document.querySelector(t)?.getAttribute('state')}`),
        [...TAGS],
      );
      throw new Error(`not every widget is ready (${states.join(', ')}; ${errors.join('; ')})`, {
        cause: e,
      });
    });
  const map = page.locator('poruch-map');
  await expect.poll(() => map.locator('.poruch-cluster').count()).toBeGreaterThan(0);
  await expect
    .poll(() => map.locator('img.leaflet-tile-loaded').count(), { timeout: LONG })
    .toBeGreaterThan(0);
  return {
    context,
    page,
    errors,
    csp: (await answer?.allHeaders())?.['content-security-policy'],
    sent: () => Promise.all(pending),
  };
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
const written = (page: Page) =>
  page.evaluate(() => (window as unknown as { __written: string[] }).__written);

/** Each widget's box, rounded to the pixel, at 1280 and 375 px wide. */
async function sizes(page: Page): Promise<Record<string, { width: number; height: number }>> {
  const out: Record<string, { width: number; height: number }> = {};
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const boxes = await page.evaluate(
      (tags) =>
        tags.map((tag) => {
          const r = document.querySelector(tag)!.getBoundingClientRect();
          return [tag, Math.round(r.width), Math.round(r.height)] as const;
        }),
      [...TAGS],
    );
    for (const [tag, w, h] of boxes) out[`${tag} at ${width}`] = { width: w, height: h };
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return out;
}

describe('every widget on a host page with the strict CSP of docs/embedding.md', () => {
  it('is styled as without the policy, and nothing is blocked or logged', async () => {
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    const plain = await open('plain');
    expect(plain.csp).toBeUndefined();
    const expected = await sizes(plain.page);
    expect(plain.errors).toEqual([]);
    await plain.context.close();

    const { context, page, errors, csp } = await open('csp');
    expect(csp).toBe(policy);
    expect(await sizes(page)).toEqual(expected);
    // The map is exactly the height the loader reserved for it before its code came (the
    // reserve is an adopted sheet too), not the page's height as an unstyled Leaflet grows.
    const reserved = await page.evaluate(() => {
      const rule = document.adoptedStyleSheets
        .flatMap((sheet) => [...sheet.cssRules])
        .find((r) => r instanceof CSSStyleRule && r.selectorText.startsWith('poruch-map:'));
      if (!(rule instanceof CSSStyleRule)) return null;
      // The reserve may be a calc() of custom properties: a block with it measures it.
      const probe = document.createElement('div');
      probe.style.minHeight = rule.style.minHeight;
      document.body.append(probe);
      const height = probe.getBoundingClientRect().height;
      probe.remove();
      return height;
    });
    expect(reserved).toBeGreaterThan(0);
    expect(expected['poruch-map at 1280']!.height).toBe(reserved);
    await screenshot(page, 'widgets-csp');
    // The alert dialog (loaded when opened) is laid out by the widget's adopted sheet too: a box
    // of at most 480 px with its shadow, not an unstyled form across the page.
    for (const tag of ['poruch-search', 'poruch-vacancies']) {
      const widget = page.locator(tag);
      await widget.getByRole('button', { name: ua('alerts.notify_button') }).click();
      const dialog = widget.getByTestId('alert-dialog');
      await dialog.waitFor();
      const look = await dialog.evaluate((d) => {
        const style = getComputedStyle(d);
        return { width: d.getBoundingClientRect().width, shadow: style.boxShadow !== 'none' };
      });
      expect(look.width, tag).toBeLessThanOrEqual(480);
      expect(look.shadow, tag).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends and gets no cookie, and stores only the documented keys', async () => {
    const { context, page, errors, sent } = await open('csp');
    // Loading every widget stores nothing.
    expect(await written(page)).toEqual([]);

    const service = page.locator('poruch-service');
    const used = page.waitForResponse(
      (r) => r.url().includes('/used') && r.request().method() === 'POST',
      { timeout: LONG },
    );
    await service.getByRole('button', { name: ua('home.used_service') }).click();
    expect((await used).ok()).toBe(true);
    expect(documentedKeys).toEqual(['poruch:browser-id', 'poruch:used']);
    await expect.poll(async () => [...new Set(await written(page))].sort()).toEqual(documentedKeys);
    expect(await page.evaluate(() => Object.keys(localStorage).sort())).toEqual(documentedKeys);
    // The flag was asked for and shown (a CORS image the server did not allow would not be).
    const flag = service.locator('img.flag__img').first();
    await flag.scrollIntoViewIfNeeded();
    await expect
      .poll(() => flag.evaluate((i: HTMLImageElement) => i.naturalWidth), { timeout: LONG })
      .toBeGreaterThan(0);

    // A control: an image asked for with credentials (no `crossorigin`) carries the cookie.
    const control = await credentialedControl(page, env.server.baseUrl);
    await expect.poll(async () => (await sent()).some((s) => s.url === control)).toBe(true);
    const all = await sent();
    expect(all.find((s) => s.url === control)?.cookie).toContain(PLANTED_COOKIE);

    const widgets = all.filter((s) => s.url !== control);
    const count = (re: RegExp) => widgets.filter((s) => re.test(new URL(s.url).pathname)).length;
    expect(count(/^\/widgets\/v0\/poruch\.js$/)).toBe(1);
    expect(count(/^\/widgets\/v0\/.+-[\w-]{8}\.js$/)).toBeGreaterThan(0);
    expect(count(/^\/flags\//)).toBeGreaterThan(0);
    expect(count(/^\/api\/v1\//)).toBeGreaterThan(0);
    expect(widgets.filter((s) => s.cookie || s.setCookie)).toEqual([]);

    // No cookie was set, for the host page or the Poruch site: only the planted one is there.
    expect((await context.cookies()).map((c) => c.name)).toEqual(['poruch_probe']);
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
