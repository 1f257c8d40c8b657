/**
 * XSS (docs/security.md#xss): every payload of helpers/xss.ts goes through the API into
 * every free-text field (service name, address and its geocoded parts, descriptions ua/en,
 * original place, account names, vacancy fields, report text, decline reason, administrator name,
 * campaign subject and content); the administrator approves, so public screens show them. Then
 * Chromium opens every screen and widget that shows them with a trap: `__xss()` exposed to every
 * frame, `window.__xssHit`, and `dialog` events. Nothing may fire, the payloads must be visible
 * as text, no element may carry an inline handler, and no link may have a scheme other than
 * http, https, tel or mailto — also for rows written straight into the database before the
 * schema checked links (the renderers check again).
 *
 * CSP is bypassed on purpose: the test proves the renderers escape, not that the policy blocks.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  request,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import { openDatabase, seedServiceRows } from '@poruch/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  inLanes,
  launchBrowser,
  makeDataDir,
  REPO_ROOT,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { startStaticServer, type StaticServer } from './fixtures/staticServer.js';
import { POLL, visitInApp, warsawService } from './helpers/screens.js';
import {
  BAD_PHONES,
  BAD_WEBSITES,
  PAYLOADS,
  rendered,
  setTrap,
  unsafeHrefs,
  type Trap,
} from './helpers/xss.js';

let server: RunningServer;
let site: StaticServer;
let siteRoot: string;
let browser: Browser;
let admin: { email: string; password: string };
let adminApi: APIRequestContext;
const LONG = 300_000;
/** Pages (and seeded partners) handled side by side. */
const LANES = 3;

interface Seeded {
  payload: string;
  /** Approved: on the public screens, with a vacancy and a report. */
  serviceId: string;
  /** Declined with the payload as the reason. */
  declinedId: string;
  partner: APIRequestContext;
}
const seeded: Seeded[] = [];
/** Approved rows inserted straight into the database with bad links. */
const oldRows: { id: string; website: string; phone: string }[] = [];

let forwarded = 0;

/** An API context that keeps cookies; state-changing calls carry the XSRF token. */
async function apiContext(): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL: server.baseUrl });
  await ctx.get('/api/v1/auth/check');
  return ctx;
}

async function call(
  ctx: APIRequestContext,
  method: 'POST' | 'PUT' | 'DELETE',
  apiPath: string,
  data: unknown,
): Promise<{ id: string } & Record<string, unknown>> {
  const token =
    (await ctx.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await ctx.fetch(`/api/v1/${apiPath}`, {
    method,
    data: data as object,
    // Reports are limited per address: each comes from its own (TRUST_PROXY is on).
    headers: {
      'x-xsrf-token': decodeURIComponent(token),
      'x-forwarded-for': `10.9.0.${++forwarded}`,
    },
  });
  if (!res.ok()) throw new Error(`${method} ${apiPath}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** A service whose every free-text field is `payload`, at its own spot in Warsaw. */
function hostileService(payload: string, i: number) {
  const base = warsawService(payload);
  return {
    ...base,
    address: payload,
    addressDetails: {
      ...base.addressDetails,
      lat: 52.22 + Math.floor(i / 6) * 0.003,
      lng: 20.99 + (i % 6) * 0.004,
      displayName: payload,
      city: payload,
    },
    descriptionUa: payload,
    descriptionOther: payload,
    originalPlace: payload,
  };
}

/**
 * Rows from before the schema refused bad links, written straight into the embedded database
 * (before the server starts: it allows one process).
 */
async function insertOldRows(dataDir: string) {
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  try {
    for (const [i, website] of BAD_WEBSITES.entries()) {
      const phone = BAD_PHONES[i % BAD_PHONES.length]!;
      const [id] = await seedServiceRows(database.db, [
        {
          name: `Old row ${i}`,
          countryCode: 'PL',
          category: 'beauty_and_health',
          address: 'Warszawa',
          lat: 52.2 + i * 0.001,
          lng: 21.05,
          website,
          phone,
          descriptionUa: 'Стара',
          descriptionOther: 'Old',
          status: 'approved',
          showOnMap: true,
        },
      ]);
      oldRows.push({ id: id!, website, phone });
    }
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  for (const p of PAYLOADS) expect(p.length, p).toBeLessThanOrEqual(80);
  const launched = launchBrowser();
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, 'xss-admin@poruch.test', { isSuper: true });
  await insertOldRows(dataDir);
  server = await startServer({
    dataDir,
    env: { SEED_DEMO: 'false', RATE_SIGNUP_PER_IP: '1000', TRUST_PROXY: 'true' },
  });
  browser = await launched;
  adminApi = await apiContext();
  await call(adminApi, 'POST', 'auth/login', admin);
  await adminApi.get('/api/v1/auth/check');

  await inLanes(PAYLOADS, LANES, { open: async () => undefined }, async (_, payload, i) => {
    const partner = await apiContext();
    const password = 'xss-partner-pass-42';
    const registered = (await call(partner, 'POST', 'auth/register', {
      account: {
        firstName: payload,
        lastName: payload,
        email: `xss${i}@poruch.test`,
        phone: '',
        locale: 'ua',
        marketingConsent: true,
        password,
        confirmPassword: password,
      },
      service: hostileService(payload, i),
      termsAgreed: true,
    })) as unknown as { service: { id: string } };
    await partner.get('/api/v1/auth/check');
    const serviceId = registered.service.id;
    const declined = await call(partner, 'POST', 'my/services', hostileService(payload, i));
    await call(partner, 'POST', `my/services/${serviceId}/vacancies`, {
      name: payload,
      requirements: payload,
      description: payload,
      salary: payload,
    });
    await call(adminApi, 'POST', `admin/services/${serviceId}/approve`, {});
    await call(adminApi, 'POST', `admin/services/${declined.id}/decline`, { reason: payload });
    await call(adminApi, 'POST', 'admin/administrators', {
      email: `xss-admin${i}@poruch.test`,
      firstName: payload,
      isSuper: false,
    });
    seeded[i] = { payload, serviceId, declinedId: declined.id, partner };
  });
  // An anonymous visitor reports each, in order: the last payload's report is the newest, on the
  // first page of the administrator's reports.
  for (const { serviceId, payload } of seeded) {
    const visitor = await request.newContext({ baseURL: server.baseUrl });
    await call(visitor, 'POST', 'reports', { serviceId, reason: 'other', description: payload });
    await visitor.dispose();
  }
  // Campaigns (subject and Markdown content) are shown only in mail: mail-xss.test.ts (server).
  siteRoot = await mkdtemp(path.join(os.tmpdir(), 'poruch-xss-host-'));
  await cp(path.join(REPO_ROOT, 'examples'), siteRoot, { recursive: true });
  site = await startStaticServer(siteRoot);
}, LONG);

afterAll(async () => {
  for (const s of seeded) await s.partner.dispose();
  await adminApi?.dispose();
  await browser?.close();
  await site?.stop();
  await server?.stop();
  if (siteRoot) await rm(siteRoot, { recursive: true, force: true });
});

/** A host page on the foreign origin that loads the widgets from the API's origin. */
async function hostPage(name: string, body: string): Promise<string> {
  await writeFile(
    path.join(siteRoot, `${name}.html`),
    `<!doctype html><html lang="uk"><head><meta charset="utf-8"><title>${name}</title>
<link rel="icon" href="data:,">
<script type="module" src="${server.baseUrl}/widgets/v0/poruch.js"></script></head>
<body><main>${body}</main></body></html>`,
  );
  return `${site.origin}/${name}.html`;
}

/** A trapped context; `state` logs it in (the cookies of an API context). */
async function trapped(
  state?: APIRequestContext,
): Promise<{ context: BrowserContext; page: Page; trap: Trap }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
    ...(state ? { storageState: await state.storageState() } : {}),
  });
  await context.addInitScript(() => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
  });
  const trap = await setTrap(context);
  const page = await context.newPage();
  return { context, page, trap };
}

/** A lane of `inLanes`: its own trapped context and page, closed at the end. */
const trappedLane = (state?: APIRequestContext) => ({
  open: () => trapped(state),
  close: ({ context }: { context: BrowserContext }) => context.close(),
});

/**
 * Lets handlers, lazy images, autofocus and animations run before the trap is read. A bounded
 * wait by design (it proves that nothing runs): every payload is on the page already, its images
 * fail at once (no network behind them) and a handler or an animation runs within a frame or two,
 * so 300 ms is many times what a payload needs to run.
 */
const settle = (page: Page) => page.waitForTimeout(300);

/**
 * Asserts that nothing ran on the page, no element carries an inline handler, no link has
 * another scheme, and `visible` payloads are in the page's text (waited for: a screen that
 * replaces its first render, such as the profile's server-rendered first screen, may lack them
 * for a moment).
 */
async function expectSafe(page: Page, trap: Trap, where: string, visible: readonly string[] = []) {
  await settle(page);
  const r = await rendered(page);
  expect({ where, hits: trap.hits, flagged: await trap.flagged(page) }).toEqual({
    where,
    hits: [],
    flagged: [],
  });
  expect({ where, handlers: r.handlers, active: r.active }).toEqual({
    where,
    handlers: [],
    active: [],
  });
  expect({ where, unsafe: unsafeHrefs(r.hrefs) }).toEqual({ where, unsafe: [] });
  await waitForTexts(page, visible);
}

/** Opens `path` of the site: loaded first, then through the app's router (visitInApp). */
const visit = (page: Page, path: string) => visitInApp(page, `${server.baseUrl}${path}`);

/** Waits until every payload in `texts` is on the page (through shadow roots). */
async function waitForTexts(page: Page, texts: readonly string[]) {
  const missing = async () => {
    const { text } = await rendered(page);
    return texts.filter((t) => !text.includes(t));
  };
  try {
    await expect.poll(async () => (await missing()).length, POLL).toBe(0);
  } catch {
    const { text } = await rendered(page);
    throw new Error(
      `${page.url()}: not shown: ${JSON.stringify(await missing())}\n${text.replace(/\s+/g, ' ').slice(0, 1500)}`,
    );
  }
}

/** How many of `texts` the page shows, once it shows at least one. */
async function countShown(page: Page, texts: readonly string[]): Promise<number> {
  const count = async () => {
    const { text } = await rendered(page);
    return texts.filter((t) => text.includes(t)).length;
  };
  await expect.poll(count, POLL).toBeGreaterThan(0);
  await settle(page);
  return count();
}

describe('the trap', () => {
  it('catches a payload that runs and a dialog (so the test can fail)', async () => {
    const { context, page, trap } = await trapped();
    await page.goto(`${server.baseUrl}/about`);
    await page.evaluate((html) => {
      const div = document.createElement('div');
      div.innerHTML = html;
      document.body.append(div);
    }, PAYLOADS[1]!);
    await page.evaluate(() => setTimeout(() => alert('probe'), 0));
    await expect.poll(() => trap.hits.length, POLL).toBe(2);
    expect(await trap.flagged(page)).toHaveLength(1);
    const r = await rendered(page);
    expect(r.handlers).toEqual(['img[onerror]']);
    await context.close();
  });
});

describe('public screens of the site', () => {
  it(
    'home: the service list and the vacancy list show the payloads as text',
    async () => {
      const { context, page, trap } = await trapped();
      const names = seeded.map((s) => s.payload);
      // Two pages of 20 show every approved payload service (and the old rows).
      const found = new Set<string>();
      for (const pageNo of [1, 2]) {
        await page.goto(`${server.baseUrl}/?view=list&country=PL&page=${pageNo}`);
        await expect
          .poll(async () => {
            const { text } = await rendered(page);
            return names.filter((n) => text.includes(n)).length;
          }, POLL)
          .toBeGreaterThan(0);
        await expectSafe(page, trap, `home list page ${pageNo}`);
        const { text } = await rendered(page);
        for (const n of names) if (text.includes(n)) found.add(n);
      }
      expect(names.filter((n) => !found.has(n))).toEqual([]);
      await page.goto(`${server.baseUrl}/?mode=vacancies&view=list&country=PL`);
      // A page of 20 vacancies, each with the payload as its title and its service's name.
      expect(await countShown(page, names)).toBeGreaterThanOrEqual(Math.min(20, names.length));
      await expectSafe(page, trap, 'home vacancies');
      await context.close();
    },
    LONG,
  );

  it(
    'home map: markers and their cards',
    async () => {
      const { context, page, trap } = await trapped();
      await page.goto(`${server.baseUrl}/?country=PL`);
      // The site's map is the widget's React component (no <poruch-map> element).
      const markers = page.locator('.leaflet-marker-icon');
      await expect.poll(() => markers.count(), POLL).toBeGreaterThan(0);
      await expectSafe(page, trap, 'home map');
      // A marker's card (a cluster zooms in instead).
      await markers.first().click({ force: true });
      await settle(page);
      await expectSafe(page, trap, 'home map after a click');
      await context.close();
    },
    LONG,
  );

  it(
    'profile: every tab of every service',
    async () => {
      await inLanes(seeded, LANES, trappedLane(), async ({ page, trap }, s) => {
        // Loaded: the server's first screen, then the app; the other tabs through the app.
        await page.goto(`${server.baseUrl}/services/${s.serviceId}`);
        for (const tab of ['', '/vacancies', '/contacts']) {
          if (tab) await visit(page, `/services/${s.serviceId}${tab}`);
          await waitForTexts(page, [s.payload]);
          await expectSafe(page, trap, `profile ${s.serviceId}${tab}`, [s.payload]);
        }
      });
    },
    LONG,
  );

  it(
    'profile: links of old rows are only http(s) and tel, whatever the database holds',
    async () => {
      await inLanes(oldRows, LANES, trappedLane(), async ({ page, trap }, row) => {
        await page.goto(`${server.baseUrl}/services/${row.id}/contacts`);
        await waitForTexts(page, ['Old row']);
        await expectSafe(page, trap, `old row ${row.website}`);
        const { hrefs } = await rendered(page);
        // The website is no link at all; a telephone link, if any, is tel: and digits.
        expect(hrefs.filter((h) => h.includes('evil.example') || /xss/i.test(h))).toEqual([]);
        for (const h of hrefs.filter((x) => x.startsWith('tel:')))
          expect(h).toMatch(/^tel:\+?\d+$/);
        // Nor does the page's structured data name it (schema.org sameAs).
        const ld = await page.evaluate(() =>
          Array.from(document.querySelectorAll('script[type="application/ld+json"]'))
            .map((e) => e.textContent ?? '')
            .join('\n'),
        );
        expect(ld).toContain('Old row');
        expect(ld).not.toMatch(/javascript:|data:|vbscript:|evil\.example/i);
      });
    },
    LONG,
  );
});

describe('screens of a partner and of the administrator', () => {
  it(
    'dashboard: account, services with the decline reason, vacancies',
    async () => {
      await inLanes(seeded, LANES, { open: async () => undefined }, async (_, s) => {
        const { context, page, trap } = await trapped(s.partner);
        await visit(page, '/dashboard');
        await waitForTexts(page, [s.payload]);
        await expectSafe(page, trap, `dashboard of ${s.payload}`, [s.payload]);
        await visit(page, '/dashboard/services');
        await waitForTexts(page, [s.payload]);
        await expectSafe(page, trap, `my services of ${s.payload}`, [s.payload]);
        await visit(page, `/dashboard/services/${s.serviceId}`);
        await waitForTexts(page, [s.payload]);
        await expectSafe(page, trap, `service editor of ${s.payload}`, [s.payload]);
        await context.close();
      });
    },
    LONG,
  );

  it(
    'admin: clients, review of each service, reports, administrators, audit log, campaigns',
    async () => {
      const { context, page, trap } = await trapped(adminApi);
      await page.goto(`${server.baseUrl}/admin`);
      expect(
        await countShown(
          page,
          seeded.map((s) => s.payload),
        ),
      ).toBeGreaterThan(0);
      await expectSafe(page, trap, 'admin clients');
      const reviews = seeded.flatMap((s) => [s.serviceId, s.declinedId].map((id) => ({ s, id })));
      await inLanes(reviews, LANES, trappedLane(adminApi), async (lane, { s, id }) => {
        await visit(lane.page, `/admin/services/${id}`);
        await waitForTexts(lane.page, [s.payload]);
        await expectSafe(lane.page, lane.trap, `admin review ${id}`, [s.payload]);
      });
      await page.goto(`${server.baseUrl}/admin/reports`);
      await waitForTexts(page, [seeded[seeded.length - 1]!.payload]);
      await expectSafe(page, trap, 'admin reports');
      // The administrators are listed by their names (a payload each), the audit log names the
      // services and the declines' reasons.
      for (const [url, what] of [
        ['/admin/administrators', 'admin administrators'],
        ['/admin/audit?action=service.decline', 'admin audit log'],
      ] as const) {
        await page.goto(`${server.baseUrl}${url}`);
        expect(
          await countShown(
            page,
            seeded.map((s) => s.payload),
          ),
        ).toBeGreaterThan(0);
        await expectSafe(page, trap, what);
      }
      await page.goto(`${server.baseUrl}/admin/campaigns`);
      await expectSafe(page, trap, 'admin campaigns');
      await context.close();
    },
    LONG,
  );
});

describe('widgets embedded on a host page', () => {
  it(
    'search, map (list and cards), vacancies, service and report',
    async () => {
      const { context, page, trap } = await trapped();
      const api = server.baseUrl;
      const names = seeded.map((s) => s.payload);
      await page.goto(`${site.origin}/diaspora-map/?api=${encodeURIComponent(api)}`);
      await expect
        .poll(() => page.locator('poruch-map .leaflet-marker-icon').count(), POLL)
        .toBeGreaterThan(0);
      await expectSafe(page, trap, 'example page');
      await page.goto(
        await hostPage(
          'xss-lists',
          `<poruch-search api-base="${api}" page-size="50" country="PL"></poruch-search>
        <poruch-vacancies api-base="${api}" page-size="50"></poruch-vacancies>
        <poruch-map api-base="${api}" center='{"lat":52.227,"lng":21.0}' zoom="14" tile-url="none"></poruch-map>`,
        ),
      );
      await waitForTexts(page, names);
      await expectSafe(page, trap, 'search and vacancies widgets', names);
      // The map's cards: a click on each marker shows the service's name.
      const markers = page.locator('poruch-map .leaflet-marker-icon');
      await expect.poll(() => markers.count(), POLL).toBeGreaterThan(0);
      const count = await markers.count();
      for (let i = 0; i < count; i++) {
        await markers.nth(i).click({ force: true });
        const title = page.locator('poruch-map [part="card-title"]');
        await title.waitFor();
        expect(names).toContain((await title.textContent())?.trim());
      }
      await expectSafe(page, trap, 'map cards');
      await page.locator('poruch-map button[aria-pressed]').click();
      await expectSafe(page, trap, 'map list view');
      await inLanes(seeded, LANES, trappedLane(), async ({ page, trap }, s) => {
        await page.goto(
          await hostPage(
            `xss-service-${s.serviceId}`,
            `<poruch-service api-base="${api}" service-id="${s.serviceId}" tab="contacts"></poruch-service>
          <poruch-service api-base="${api}" service-id="${s.serviceId}" tab="vacancies"></poruch-service>
          <poruch-service api-base="${api}" service-id="${s.serviceId}"></poruch-service>
          <poruch-report api-base="${api}" service-id="${s.serviceId}"></poruch-report>`,
          ),
        );
        await waitForTexts(page, [s.payload]);
        await expectSafe(page, trap, `service widget ${s.serviceId}`, [s.payload]);
      });
      await inLanes(oldRows, LANES, trappedLane(), async ({ page, trap }, row) => {
        await page.goto(
          await hostPage(
            `xss-old-${row.id}`,
            `<poruch-service api-base="${api}" service-id="${row.id}" tab="contacts"></poruch-service>`,
          ),
        );
        await waitForTexts(page, ['Old row']);
        await expectSafe(page, trap, `service widget of old row ${row.website}`);
      });
      await context.close();
    },
    LONG,
  );
});
