import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createI18n, translator } from '@poruch/core';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import {
  createAdmin,
  launchBrowser,
  makeDataDir,
  REPO_ROOT,
  startServer,
  type RunningServer,
} from '../fixtures/index.js';
import { startStaticServer, type StaticServer } from '../fixtures/staticServer.js';

/** The Ukrainian and English texts the widgets show. */
export const ua = translator(createI18n('ua'));
export const en = translator(createI18n('en_GB'));

/** The hostile host stylesheet of the issue: it must neither break a widget nor be broken. */
export const HOSTILE_CSS = '* { all: unset; color: red !important } div { display: none }';

/** Generous: the machine has two cores and other suites run beside these. */
export const LONG = 30_000;

/**
 * One server, one foreign origin and one browser for a suite file. The foreign origin
 * (`http://127.0.0.1:<port>`, another port than the API's) serves a copy of `examples/` and the
 * host pages written by {@link WidgetEnv.hostPage}.
 */
export interface WidgetEnv {
  server: RunningServer;
  site: StaticServer;
  browser: Browser;
  /** The administrator created before the start. */
  admin: { email: string; password: string };
  /**
   * Writes a host page on the foreign origin that loads the built loader from the API's
   * origin (`/widgets/v0/poruch.js`) and holds `body` (`{{API}}` stands for the server's URL);
   * returns its URL.
   */
  hostPage(
    name: string,
    body: string,
    /** `blockRender`: the loader's tag has `blocking="render"` (the page paints after it ran). */
    options?: { css?: string; lang?: string; blockRender?: boolean },
  ): Promise<string>;
  /** The URL of an example page on the foreign origin, pointed at the server. */
  example(name: string, params?: Record<string, string>): string;
  stop(): Promise<void>;
}

/**
 * @param options.prepare Writes into the data directory before the server starts (it allows
 *   one process), e.g. scale data from the server's `seed:synthetic`. Without it, the server
 *   seeds the demo catalogue.
 */
export async function startWidgetEnv(
  options: { prepare?: (dataDir: string) => Promise<void> } = {},
): Promise<WidgetEnv> {
  const dataDir = await makeDataDir();
  await options.prepare?.(dataDir);
  const admin = await createAdmin(dataDir, 'widgets-admin@example.org');
  const root = await mkdtemp(path.join(os.tmpdir(), 'poruch-host-'));
  await cp(path.join(REPO_ROOT, 'examples'), root, { recursive: true });
  // The demo catalogue: 364 approved services in 63 cities, 360 of them public (4 hidden: not re-confirmed).
  const server = await startServer({ dataDir });
  const site = await startStaticServer(root);
  const browser = await launchBrowser();
  return {
    server,
    site,
    browser,
    admin,
    async hostPage(name, body, options = {}) {
      const html = `<!doctype html>
<html lang="${options.lang ?? 'uk'}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Host page: ${name}</title>
    <link rel="icon" href="data:," />
    ${options.css ? `<style>${options.css}</style>` : ''}
    <script type="module"${options.blockRender ? ' blocking="render"' : ''} src="${server.baseUrl}/widgets/v0/poruch.js"></script>
  </head>
  <body>
    <main>
      ${body.replaceAll('{{API}}', server.baseUrl)}
    </main>
  </body>
</html>`;
      await writeFile(path.join(root, `${name}.html`), html);
      return `${site.origin}/${name}.html`;
    },
    example(name, params = {}) {
      const q = new URLSearchParams({ api: server.baseUrl, ...params });
      return `${site.origin}/${name}/?${q}`;
    },
    async stop() {
      await browser.close();
      await site.stop();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface Tracked {
  /** Every fetch a page script made: its URL and `credentials` mode. */
  fetches(): Promise<{ url: string; credentials: string }[]>;
  /** Requests to the API's origin with the Cookie header they carried. */
  apiRequests: { url: string; method: string; cookie: string | undefined }[];
  /**
   * Asserts that no request to the API carried a cookie, after a control proved one could (an
   * image asked for with credentials from the page carries the planted cookie), and that no
   * cookie was set: the planted one is the only one, for the API's site and the host's alike
   * (cookies do not tell ports apart).
   */
  expectNoCookies(): Promise<void>;
}

/** The cookie {@link plantCookie} sets on the API's origin. */
export const PLANTED_COOKIE = 'poruch_probe=1';

/**
 * Plants a SameSite=Lax cookie on the API's origin. The foreign origin is on the same site, so a
 * request made with credentials would carry it.
 */
export function plantCookie(context: BrowserContext, apiBase: string): Promise<void> {
  return context.addCookies([{ name: 'poruch_probe', value: '1', url: apiBase, sameSite: 'Lax' }]);
}

/**
 * The Cookie header a request carried. `request.headers()` leaves cookies out, so a check made
 * with it passes whatever is sent; the headers as sent are read instead. A page closed before
 * they are read counts as none.
 */
export function requestCookie(req: Request): Promise<string | undefined> {
  return req.allHeaders().then(
    (h) => h.cookie,
    () => undefined,
  );
}

/** Asks for an image of the API with credentials from the page: the control of a cookie check. */
export async function credentialedControl(page: Page, apiBase: string): Promise<string> {
  const url = `${apiBase}/icon.svg?cookie-control=${Date.now()}`;
  await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
  }, url);
  return url;
}

/**
 * A context on the foreign origin whose pages record every fetch's `credentials` mode, and
 * every request to the API with its Cookie header. A cookie is planted on the API's origin
 * first, so a credentialed call would carry it ({@link Tracked.expectNoCookies}).
 */
export async function trackedContext(
  env: WidgetEnv,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; tracked: Tracked }> {
  const context = await env.browser.newContext({ viewport });
  await plantCookie(context, env.server.baseUrl);
  await context.addInitScript(() => {
    const w = window as unknown as { __fetches: { url: string; credentials: string }[] };
    w.__fetches = [];
    const original = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      const credentials =
        init?.credentials ?? (input instanceof Request ? input.credentials : 'same-origin');
      w.__fetches.push({ url, credentials });
      return original(input, init);
    };
  });
  const page = await context.newPage();
  const apiRequests: Tracked['apiRequests'] = [];
  const headersRead: Promise<void>[] = [];
  page.on('request', (req) => {
    if (req.url().startsWith(env.server.baseUrl)) {
      const entry = {
        url: req.url(),
        method: req.method(),
        cookie: undefined as string | undefined,
      };
      apiRequests.push(entry);
      headersRead.push(requestCookie(req).then((cookie) => void (entry.cookie = cookie)));
    }
  });
  return {
    context,
    page,
    tracked: {
      apiRequests,
      fetches: () =>
        page.evaluate(
          () =>
            (window as unknown as { __fetches: { url: string; credentials: string }[] }).__fetches,
        ),
      async expectNoCookies() {
        await Promise.all(headersRead);
        const sent = apiRequests.filter((r) => r.cookie).map((r) => r.url);
        const control = await credentialedControl(page, env.server.baseUrl);
        await Promise.all(headersRead);
        expect(apiRequests.find((r) => r.url === control)?.cookie).toContain(PLANTED_COOKIE);
        expect(sent).toEqual([]);
        expect((await context.cookies()).map((c) => c.name)).toEqual(['poruch_probe']);
      },
    },
  };
}

const AXE = createRequire(path.join(REPO_ROOT, 'packages/widgets/package.json')).resolve(
  'axe-core/axe.min.js',
);

/**
 * Runs axe-core on `selector` (it reads open shadow roots); returns the serious and critical
 * violations as `id: target` lines.
 */
export async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async (sel) => {
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: unknown): Promise<{
            violations: { id: string; impact: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run({ include: [[sel]] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 5),
    }));
  }, selector);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/**
 * Presses Tab up to `max` times and returns a description of each focused control, looking
 * through open shadow roots: `tag[part]:text`.
 */
export async function tabStops(page: Page, max = 40): Promise<string[]> {
  const stops: string[] = [];
  await resetFocus(page);
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      let el: Element | null = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      if (!el || el === document.body) return null;
      const label =
        el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40) ?? '';
      return `${el.localName}${el.getAttribute('part') ? `[${el.getAttribute('part')}]` : ''}${
        el.getAttribute('type') ? `(${el.getAttribute('type')})` : ''
      }:${label}`;
    });
    if (stop === null) break;
    stops.push(stop);
  }
  return stops;
}

/**
 * Moves focus back to the start of the page, so the next Tab reaches its first control. A blur
 * alone keeps Chrome's sequential focus starting point where the focus was (inside a widget).
 */
export async function resetFocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    let start = document.getElementById('e2e-focus-start');
    if (!start) {
      start = document.createElement('span');
      start.id = 'e2e-focus-start';
      start.tabIndex = -1;
      document.body.prepend(start);
    }
    start.focus();
  });
}

/** The innermost focused element's description, through shadow roots. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el ? `${el.localName}:${(el.textContent ?? '').trim().slice(0, 60)}` : '';
  });
}

/** Computed styles of a host-page element, to prove a widget leaks no style out. */
export function hostStyle(page: Page, selector: string): Promise<Record<string, string>> {
  return page.evaluate((sel) => {
    const cs = getComputedStyle(document.querySelector(sel)!);
    const props = [
      'color',
      'font-family',
      'font-size',
      'display',
      'margin-top',
      'padding-top',
      'background-color',
      'box-sizing',
      'line-height',
      'border-top-width',
    ];
    return Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]));
  }, selector);
}

/** Waits until the `state` attribute of the first `selector` on the page is `state`. */
export async function waitForState(page: Page, selector: string, state = 'ready'): Promise<void> {
  await page.waitForFunction(
    ({ selector, state }) => document.querySelector(selector)?.getAttribute('state') === state,
    { selector, state },
    { timeout: LONG },
  );
}
