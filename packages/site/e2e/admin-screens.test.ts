/**
 * The administration in Chromium: who may open each /admin section (the route rules), the audit
 * log filtered and paged through its URL, and the administrators list with a promotion and a
 * demotion confirmed, in both languages, with screenshots at 375 and 1280 px.
 */
import { createI18n, translator } from '@poruch/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectErrors,
  createAdmin,
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { apiCall, POLL, registerPartner, ua } from './helpers/screens.js';

const en = translator(createI18n('en_GB'));

let server: RunningServer;
let browser: Browser;
let root: { email: string; password: string };
let plain: { email: string; password: string };
let partner: { email: string; password: string; serviceId: string };

/** Every section of the administration, as a visitor would type it. */
const SECTIONS = [
  '/admin',
  '/admin/reports',
  '/admin/campaigns',
  '/admin/audit',
  '/admin/administrators',
];

beforeAll(async () => {
  const dataDir = await makeDataDir();
  root = await createAdmin(dataDir, 'root@poruch.test', { isSuper: true });
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();

  // A partner with a service, an administrator added, and 30 actions on the service: 31 entries,
  // two pages of the audit log.
  const context = await browser.newContext();
  const password = 'partner password 123';
  const registered = await registerPartner(
    context,
    server.baseUrl,
    'partner@poruch.test',
    password,
    'Перукарня «Калина»',
  );
  partner = { email: 'partner@poruch.test', password, serviceId: registered.service.id };
  await context.clearCookies();
  await apiCall(context, server.baseUrl, 'POST', 'auth/login', root);
  const added = (await apiCall(context, server.baseUrl, 'POST', 'admin/administrators', {
    email: 'plain@poruch.test',
    firstName: 'Марія',
  })) as { password: string };
  plain = { email: 'plain@poruch.test', password: added.password };
  await context.clearCookies();
  await apiCall(context, server.baseUrl, 'POST', 'auth/login', plain);
  for (let i = 0; i < 10; i++) {
    const id = partner.serviceId;
    await apiCall(context, server.baseUrl, 'POST', `admin/services/${id}/approve`, {});
    await apiCall(context, server.baseUrl, 'PUT', `admin/services/${id}/partner`, {
      isPartner: i % 2 === 0,
    });
    await apiCall(context, server.baseUrl, 'POST', `admin/services/${id}/decline`, {
      reason: `Причина ${i}`,
    });
  }
  await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A context in a language, logged in as `who` (through the API) or logged out. */
async function newContext(
  who: { email: string; password: string } | null,
  locale: 'ua' | 'en_GB' = 'ua',
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  await context.addInitScript((lang) => {
    localStorage.setItem('poruch_e2e', '1');
    localStorage.setItem('locale', lang);
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
  }, locale);
  if (who) {
    await apiCall(context, server.baseUrl, 'POST', 'auth/login', {
      email: who.email,
      password: who.password,
    });
  }
  return context;
}

/** Opens a path and waits until the app knows the login state and the screen has loaded. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(`${server.baseUrl}${url}`);
  await page.waitForFunction(
    () =>
      (window as any).__poruch?.auth.getState().status !== 'unknown' &&
      document.querySelector('[data-screen]') &&
      !document.querySelector('.page-loading'),
  );
}

const where = (page: Page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
};

describe('the route rules of every administration section', () => {
  it('sends visitors to the login, partners to the dashboard, administrators past the super sections', async () => {
    const visitor = await (await newContext(null)).newPage();
    for (const path of SECTIONS) {
      await open(visitor, `${path}?page=2`);
      await expect
        .poll(() => where(visitor), POLL)
        .toBe(`/login?back=${encodeURIComponent(`${path}?page=2`)}`);
    }
    await visitor.context().close();

    // The unit tests (routes.test.ts) hold every section to every rule; here the browser.
    const partnerPage = await (await newContext(partner)).newPage();
    for (const path of ['/admin/audit', '/admin/administrators']) {
      await open(partnerPage, path);
      await expect.poll(() => where(partnerPage), POLL).toBe('/dashboard');
    }
    // The dashboard's menu offers no administration.
    expect(await partnerPage.getByRole('link', { name: ua('admin.audit_title') }).count()).toBe(0);
    await partnerPage.context().close();

    const adminPage = await (await newContext(plain)).newPage();
    for (const path of ['/admin/audit', '/admin/administrators']) {
      await open(adminPage, path);
      const expected = path === '/admin/administrators' ? '/admin' : path;
      await expect.poll(() => where(adminPage), POLL).toBe(expected);
    }
    const menu = adminPage.locator('.dash-nav');
    expect(await menu.getByRole('link', { name: ua('admin.audit_title') }).count()).toBe(1);
    expect(await menu.getByRole('link', { name: ua('admin.administrators_title') }).count()).toBe(
      0,
    );
    await adminPage.context().close();
  });
});

describe('the audit log', () => {
  it('shows who did what to which service, filtered and paged through the URL, in both languages', async () => {
    const context = await newContext(root);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await open(page, '/admin');
    await page
      .locator('.dash-nav')
      .getByRole('link', { name: ua('admin.audit_title') })
      .click();
    await page.waitForURL(`${server.baseUrl}/admin/audit`);
    const rows = page.locator('table.audit tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(20);
    await expect
      .poll(() => page.getByRole('status').first().textContent(), POLL)
      .toContain(ua('audit.results', { count: 31 }));
    const first = rows.first();
    expect(await first.textContent()).toContain(plain.email);
    expect(await first.textContent()).toContain(ua('audit.action.service.decline'));
    expect(await first.textContent()).toContain('Перукарня «Калина»');
    expect(await first.textContent()).toContain(ua('audit.reason', { reason: 'Причина 9' }));
    // No raw action code anywhere on the screen.
    expect(await page.locator('main').textContent()).not.toMatch(
      /\b(service|admin|report|campaign)\.[a-z_]+\b/,
    );

    // Page 2, kept by a reload.
    await page.getByRole('button', { name: ua('common.next') }).click();
    await page.waitForURL(/[?&]page=2/);
    await expect.poll(() => rows.count(), POLL).toBe(11);
    await page.reload();
    await expect.poll(() => rows.count(), POLL).toBe(11);
    expect(await page.getByText(ua('common.page_of', { page: 2, pages: 2 })).count()).toBe(1);

    // A filter starts again at page 1, and survives a reload.
    await page
      .getByLabel(ua('audit.action_label'), { exact: true })
      .selectOption('service.decline');
    await page.waitForURL(
      (u) => u.searchParams.get('action') === 'service.decline' && !u.searchParams.has('page'),
    );
    await expect.poll(() => rows.count(), POLL).toBe(10);
    for (const text of await rows.allTextContents()) {
      expect(text).toContain(ua('audit.action.service.decline'));
    }
    await page.getByLabel(ua('audit.actor'), { exact: true }).fill('plain@');
    await page.waitForURL((u) => u.searchParams.get('actor') === 'plain@');
    await page.getByLabel(ua('audit.target'), { exact: true }).fill('калина');
    await page.waitForURL((u) => u.searchParams.get('target') === 'калина');
    await page.reload();
    await expect.poll(() => rows.count(), POLL).toBe(10);
    expect(await page.getByLabel(ua('audit.actor'), { exact: true }).inputValue()).toBe('plain@');

    // Today's entries are all of them; an end before the start is a message, not a request.
    const today = new Date();
    const day = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await page.getByLabel(ua('audit.from'), { exact: true }).fill(day(today));
    await page.getByLabel(ua('audit.to'), { exact: true }).fill(day(today));
    await page.waitForURL((u) => u.searchParams.get('to') === day(today));
    await expect.poll(() => rows.count(), POLL).toBe(10);
    await page
      .getByLabel(ua('audit.to'), { exact: true })
      .fill(day(new Date(today.getTime() - 2 * 86_400_000)));
    await expect.poll(() => page.getByText(ua('validation.date_range')).count(), POLL).toBe(1);
    expect(await rows.count()).toBe(0);
    // A filter that matches nothing says so.
    await page.getByRole('button', { name: new RegExp(ua('audit.clear')) }).click();
    await page.waitForURL(`${server.baseUrl}/admin/audit`);
    await page.getByLabel(ua('audit.target'), { exact: true }).fill('немає такого');
    await expect.poll(() => page.getByText(ua('audit.empty_filtered')).count(), POLL).toBe(1);

    await page.goto(`${server.baseUrl}/admin/audit?action=service.decline`);
    await expect.poll(() => rows.count(), POLL).toBe(10);
    await screenshot(page, 'admin-audit-ua');
    expect(errors).toEqual([]);
    await context.close();

    const enContext = await newContext(root, 'en_GB');
    const enPage = await enContext.newPage();
    await open(enPage, '/admin/audit?page=2');
    await expect.poll(() => enPage.locator('table.audit tbody tr').count(), POLL).toBe(11);
    expect(await enPage.getByRole('heading', { level: 1 }).textContent()).toBe(en('audit.title'));
    expect(await enPage.locator('table.audit').textContent()).toContain(
      en('audit.action.service.approve'),
    );
    expect(await enPage.locator('main').textContent()).not.toMatch(
      /Missing translation|\b(service|admin)\.[a-z_]+\b/,
    );
    await screenshot(enPage, 'admin-audit-en');
    // A failed load says so and offers a retry, which loads the page again.
    const auditCalls = (url: URL) => url.pathname === '/api/v1/admin/audit';
    await enPage.route(auditCalls, (r) => r.fulfill({ status: 500, body: '{}' }));
    await enPage.getByRole('button', { name: en('common.previous') }).click();
    await enPage.getByText(en('dashboard.load_failed')).waitFor();
    await enPage.unroute(auditCalls);
    await enPage.getByRole('button', { name: en('common.retry') }).click();
    await expect.poll(() => enPage.locator('table.audit tbody tr').count(), POLL).toBe(20);
    await enContext.close();
  });
});

describe('administrators', () => {
  it('lists the administrators; a promotion and a demotion are confirmed and audited', async () => {
    const context = await newContext(root);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await open(page, '/admin/administrators');
    const row = (email: string) => page.locator(`tr[data-admin-email="${email}"]`);
    await row(plain.email).waitFor();
    expect(await row(root.email).textContent()).toContain(ua('admin.role_super'));
    expect(await row(root.email).textContent()).toContain(ua('admin.you'));
    // The only super administrator cannot be demoted: no buttons, a note instead.
    expect(await row(root.email).getByRole('button').count()).toBe(0);
    expect(await row(root.email).textContent()).toContain(ua('admin.last_super'));
    await screenshot(page, 'admin-administrators-ua');

    // Promote, with a confirmation.
    await row(plain.email)
      .getByRole('button', { name: ua('admin.make_super') })
      .click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      ua('admin.confirm_promote', { email: plain.email }),
    );
    await dialog.getByRole('button', { name: ua('admin.make_super') }).click();
    await expect.poll(() => row(plain.email).textContent(), POLL).toContain(ua('admin.role_super'));

    // Demote: the question is asked in the danger style; cancelling changes nothing.
    await row(plain.email)
      .getByRole('button', { name: ua('admin.demote') })
      .click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      ua('admin.confirm_demote', { email: plain.email }),
    );
    const accept = dialog.getByRole('button', { name: ua('admin.demote') });
    expect(await accept.getAttribute('class')).toContain('button--danger');
    await dialog.getByRole('button', { name: ua('common.cancel') }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row(plain.email).textContent()).toContain(ua('admin.role_super'));
    await row(plain.email)
      .getByRole('button', { name: ua('admin.demote') })
      .click();
    await screenshot(page, 'admin-administrators-confirm-ua');
    // At 375 px the long labels wrap: no button sticks out of the dialog.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 375, height: size.height });
    const outside = await dialog.evaluate((d) => {
      const box = d.getBoundingClientRect();
      return [...d.querySelectorAll('button')]
        .filter((b) => {
          const r = b.getBoundingClientRect();
          return r.left < box.left || r.right > box.right;
        })
        .map((b) => b.textContent);
    });
    expect(outside).toEqual([]);
    await page.setViewportSize(size);
    await accept.click();
    await expect.poll(() => row(plain.email).textContent(), POLL).toContain(ua('admin.role_admin'));

    // Both changes are in the audit log, newest first.
    await open(page, '/admin/audit?targetType=account');
    const rows = page.locator('table.audit tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(3);
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain(ua('audit.action.admin.demote'));
    expect(texts[1]).toContain(ua('audit.action.admin.promote'));
    expect(texts[2]).toContain(ua('audit.action.admin.create'));
    expect(texts[2]).toContain(root.email);
    for (const text of texts) expect(text).toContain(plain.email);
    expect(errors).toEqual([]);
    await context.close();

    const enContext = await newContext(root, 'en_GB');
    const enPage = await enContext.newPage();
    await open(enPage, '/admin/administrators');
    await enPage.locator(`tr[data-admin-email="${plain.email}"]`).waitFor();
    expect(await enPage.getByRole('heading', { level: 1 }).textContent()).toBe(
      en('admin.administrators_title'),
    );
    await enPage
      .locator(`tr[data-admin-email="${plain.email}"]`)
      .getByRole('button', { name: en('admin.remove_rights') })
      .click();
    await enPage.getByRole('alertdialog').waitFor();
    expect(await enPage.getByRole('alertdialog').textContent()).toContain(
      en('admin.confirm_remove', { email: plain.email }),
    );
    await screenshot(enPage, 'admin-administrators-confirm-en');
    await enPage.getByRole('button', { name: en('common.cancel') }).click();
    await screenshot(enPage, 'admin-administrators-en');
    await enContext.close();
  });

  it('a super administrator who gives up their own rights leaves the administration at once', async () => {
    // A second super administrator first, so the first may go.
    const context = await newContext(root);
    const plainRow = await (async () => {
      const list = (await (
        await context.request.get(`${server.baseUrl}/api/v1/admin/administrators`)
      ).json()) as { items: { id: string; email: string }[] };
      return list.items.find((a) => a.email === plain.email)!;
    })();
    await apiCall(context, server.baseUrl, 'PUT', `admin/administrators/${plainRow.id}/role`, {
      role: 'super',
    });
    const page = await context.newPage();
    await open(page, '/admin/administrators');
    const mine = page.locator(`tr[data-admin-email="${root.email}"]`);
    await mine.getByRole('button', { name: ua('admin.remove_rights') }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.textContent()).toContain(ua('admin.confirm_remove_self'));
    await dialog.getByRole('button', { name: ua('admin.remove_rights') }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    expect(
      await page
        .locator('.dash-nav')
        .getByRole('link', { name: ua('admin.audit_title') })
        .count(),
    ).toBe(0);
    const res = await context.request.get(`${server.baseUrl}/api/v1/admin/audit`);
    expect(res.status()).toBe(403);
    await context.close();
  });
});
