/**
 * After login the site goes to `back` only when it is a path on its own origin
 * (sameOriginPath in @poruch/core); any other `back` goes to /dashboard. Chromium's own URL
 * parser decides here: it drops tabs and newlines, reads `\` as `/` and trims controls, which
 * is how `/login?back=/%09/evil.example` used to end on http://evil.example/.
 *
 * Most cases log in through the app's own check (`auth.check()`) with a session made once
 * through the API: the same change from logged out to logged in as a login, without a password
 * hash per case. A few go through the real login form.
 */
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '@poruch/server/testing';
import {
  createAdmin,
  inLanes,
  launchBrowser,
  makeDataDir,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { apiCall, loginUi, screen } from './helpers/screens.js';

let server: RunningServer;
let browser: Browser;
let admin: { email: string; password: string };
/** The cookies of a session logged in once through the API. */
let session: Cookie[];
let port: string;

beforeAll(async () => {
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, 'redirect-admin@poruch.test');
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false' } });
  port = new URL(server.baseUrl).port;
  browser = await launchBrowser();
  const context = await browser.newContext();
  await apiCall(context, server.baseUrl, 'POST', 'auth/login', admin);
  session = await context.cookies(server.baseUrl);
  await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Where the browser ended: its URL, or what it was asked to load off the site. */
const OFF_SITE = '<!doctype html><title>off the site</title><p>off the site</p>';

/**
 * A fresh logged-out context that records the test flag and a cookie choice; every request to
 * another origin is answered with OFF_SITE (there is no internet), so a page that leaves the
 * site shows the other URL instead of an error page.
 */
async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await context.route(
    (url) => url.origin !== server.baseUrl,
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: OFF_SITE }),
  );
  await context.addInitScript(() => {
    localStorage.setItem('poruch_e2e', '1');
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
  });
  return context;
}

/** Waits until the login screen shows, logged out. */
async function loggedOutOnLogin(page: Page): Promise<void> {
  await screen(page, 'login');
  await page.waitForFunction(
    () => (window as any).__poruch?.auth.getState().status === 'logged_out',
  );
}

/** Opens `/login?back=<query>` (`query` as written in the address) logged out. */
async function openLogin(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login?back=${query}`);
  await loggedOutOnLogin(page);
  return page;
}

/**
 * The URL the page settles on once it has left the login page: another site's, or this site's
 * once a screen other than login shows (after the route's own redirects: an unknown path goes
 * home). A page still on /login after 10 s says so.
 */
async function landing(page: Page): Promise<string> {
  try {
    await page.waitForURL((u) => u.origin !== server.baseUrl || u.pathname !== '/login', {
      timeout: 10_000,
    });
  } catch {
    return `${page.url()} (still there after 10 s)`;
  }
  // A navigation away from the site may still be under way: then the wait ends with it.
  await page
    .waitForFunction(
      () =>
        document.querySelector('[data-screen]') &&
        !document.querySelector('[data-screen="login"], .page-loading'),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await page.waitForLoadState().catch(() => undefined);
  return page.url();
}

/**
 * Logs in on `/login?back=<query>` and returns where the browser ended. The login is the
 * session made through the API: the app checks its login state again (`auth.check()`), the same
 * change from logged out to logged in as after the form. `page` is reused from case to case:
 * still in the app, it logs out (cookies cleared, the app's state too: it goes to /login) and
 * goes to the new address through the History API, which Chromium parses as on a load (the
 * router reads it back); a page that left the app loads the address.
 */
async function afterLogin(page: Page, query: string): Promise<string> {
  const context = page.context();
  await context.clearCookies();
  const inApp = await page.evaluate(() => Boolean((window as any).__poruch)).catch(() => false);
  if (inApp && new URL(page.url()).origin === server.baseUrl) {
    await page.evaluate(() => (window as any).__poruch.auth.getState().clear());
    await page.waitForURL(`${server.baseUrl}/login`);
    await page.evaluate((q) => {
      history.pushState(null, '', `/login?back=${q}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, query);
    await loggedOutOnLogin(page);
  } else {
    await page.goto(`${server.baseUrl}/login?back=${query}`);
    await loggedOutOnLogin(page);
  }
  await context.addCookies(session);
  // Not awaited in the page: the redirect may unload it before the promise settles.
  await page.evaluate(() => {
    void (window as any).__poruch.auth.getState().check();
  });
  return landing(page);
}

/** Where `afterLogin` ends for each query, four pages at a time (one browser, a context each). */
async function endings(queries: readonly string[]): Promise<string[]> {
  const ended: string[] = new Array(queries.length);
  const lane = {
    open: async () => (await newContext()).newPage(),
    close: (page: Page) => page.context().close(),
  };
  await inLanes(queries, 4, lane, async (page, query, i) => {
    ended[i] = await afterLogin(page, query);
  });
  return ended;
}

const hex = (code: number) => `%${code.toString(16).padStart(2, '0').toUpperCase()}`;
/** Every C0 control character and DEL, percent-encoded as a query carries them. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f].map(hex);

/** `back` values (as written in the address) that must end on /dashboard. */
const OFF_SITE_BACKS = [
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0d/evil.example',
  '/%0D%0A/evil.example',
  '/%09%5Cevil.example',
  '%09//evil.example',
  '/%5Cevil.example',
  '%5C%5Cevil.example',
  '%5C/evil.example',
  '//evil.example',
  '%2F%2Fevil.example%2Fx',
  '/%2F/evil.example',
  '///evil.example',
  '%20//evil.example',
  '+//evil.example',
  'https://evil.example/',
  'HTTPS://EVIL.EXAMPLE/',
  'https:evil.example',
  'https:%5C%5Cevil.example',
  'http:%5C%5Cevil.example',
  `//127.0.0.1:${'<port>'}@evil.example/`,
  `http://127.0.0.1:${'<port>'}@evil.example/`,
  `http://evil.example%5C@127.0.0.1:${'<port>'}/`,
  `//localhost:${'<port>'}/dashboard`,
  `//[::1]:${'<port>'}/dashboard`,
  `/%09/[::1]:${'<port>'}/dashboard`,
  `/%09/0x7f.2:${'<port>'}/`,
  'javascript:alert(document.domain)',
  'java%09script:alert(document.domain)',
  'JAVASCRIPT:alert(1)',
  'data:text/html,%3Cscript%3Ealert(1)%3C/script%3E',
  `blob:http://127.0.0.1:${'<port>'}/0b5c9a0e-0000-4000-8000-000000000000`,
];

/** `back` values that stay on the site, and the path they lead to. */
const ON_SITE_BACKS: [string, string][] = [
  ['%2Fdashboard%3Fx%3D1%23y', '/dashboard?x=1#y'],
  ['/dashboard/services?tab=2', '/dashboard/services?tab=2'],
  ['%2Fdashboard%2Fservices%3Ftab%3D2%23top', '/dashboard/services?tab=2#top'],
  ['%2Fabout', '/about'],
  [`http://127.0.0.1:${'<port>'}/dashboard%3Fx%3D1`, '/dashboard?x=1'],
  ['/x/..//dashboard', '/dashboard'],
];

const withPort = (query: string) => query.replaceAll('<port>', port);

describe('back after login', () => {
  it('goes to /dashboard for every back that leaves the site', async () => {
    const queries = OFF_SITE_BACKS.map(withPort);
    const ended = await endings(queries);
    const wrong = queries
      .map((q, i) => [q, ended[i]!] as const)
      .filter(([, url]) => url !== `${server.baseUrl}/dashboard`);
    expect(wrong).toEqual([]);
  }, 180_000);

  it('stays on the site for every control character and DEL, where it hides a host', async () => {
    // Chromium drops tab, LF and CR anywhere and trims the other C0 characters at the start:
    // there the address names another host, and the login goes to /dashboard. Elsewhere they
    // stay in the path, a page of this site that no route knows (home).
    const cases = CONTROLS.flatMap((c) => {
      const dropped = ['%09', '%0A', '%0D'].includes(c);
      return [
        [`/${c}/evil.example`, dropped],
        [`/${c}%5Cevil.example`, dropped],
        [`${c}//evil.example`, c !== '%7F'],
      ] as const;
    });
    const ended = await endings(cases.map(([q]) => q));
    const wrong = cases
      .map(([q, offSite], i) => [q, ended[i]!, offSite] as const)
      .filter(([, url, offSite]) =>
        offSite ? url !== `${server.baseUrl}/dashboard` : new URL(url).origin !== server.baseUrl,
      );
    expect(wrong).toEqual([]);
  }, 180_000);

  it('goes to a back on the site, with its query and fragment', async () => {
    const ended = await endings(ON_SITE_BACKS.map(([q]) => withPort(q)));
    expect(ended).toEqual(ON_SITE_BACKS.map(([, path]) => `${server.baseUrl}${path}`));
  });

  it('does the same after the login form', async () => {
    const cases = [
      ['/%09/evil.example', '/dashboard'],
      ['/%0a/evil.example', '/dashboard'],
      ['/%09%5Cevil.example', '/dashboard'],
      ['%2Fdashboard%3Fx%3D1%23y', '/dashboard?x=1#y'],
    ] as const;
    const context = await newContext();
    const ended: string[] = [];
    try {
      for (const [query] of cases) {
        const page = await openLogin(context, query);
        await loginUi(page, admin.email, admin.password);
        ended.push(await landing(page));
        // Logged out for the next round: the session cookie goes.
        await page.close();
        await context.clearCookies();
      }
    } finally {
      await context.close();
    }
    expect(ended).toEqual(cases.map(([, path]) => `${server.baseUrl}${path}`));
  }, 120_000);
});

describe('the server', () => {
  it('redirects no path, however it is written, to another origin', async () => {
    for (const path of [
      '//evil.example',
      '//evil.example/',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      '/\\evil.example',
      '/\\/evil.example',
      '/%09/evil.example',
      '/login/',
      '/assets',
      '/assets/',
      '/dashboard/',
      '/login?back=//evil.example',
      '/api/docs',
      '/api/docs/',
      '/api/docs/static/index.html',
      '/api/docs/static/index.html?//evil.example',
      '/api/docs//evil.example/static/index.html',
      '//evil.example/api/docs/static/index.html',
      '/api/docs/static/index.html/..//evil.example',
      '//api/docs/static/index.html',
      '///api/docs/static/index.html',
      '/api//docs/static/index.html',
      '/%2Fevil.example/api/docs/static/index.html',
      '/api/docs/static/index.html#//evil.example',
    ]) {
      const res = await rawGet(server.baseUrl, {}, path);
      const location = res.headers.location;
      if (location !== undefined)
        expect(new URL(location, server.baseUrl).origin, path).toBe(server.baseUrl);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});
