import type { APIRequestContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, screenshot } from './fixtures/index.js';
import {
  focused,
  LONG,
  startWidgetEnv,
  trackedContext,
  ua,
  waitForState,
  type WidgetEnv,
} from './helpers/widgets.js';

/**
 * The report form, the service profile and the dashboard from the built bundles on a foreign
 * origin: what they send, and that the server stores it.
 */

let env: WidgetEnv;
let service: { id: string; name: string; usedCount: number };

beforeAll(async () => {
  env = await startWidgetEnv();
  // A service with vacancies, so every tab of the profile has content.
  const hit = (await (await fetch(`${env.server.baseUrl}/api/v1/vacancies?pageSize=1`)).json()) as {
    items: { service: { id: string } }[];
  };
  const id = hit.items[0]!.service.id;
  service = (await (await fetch(`${env.server.baseUrl}/api/v1/services/${id}`)).json()) as {
    id: string;
    name: string;
    usedCount: number;
  };
});

afterAll(async () => {
  await env?.stop();
});

/** An API client logged in as the suite's administrator (with the XSRF header). */
async function adminApi(): Promise<APIRequestContext> {
  const context = await env.browser.newContext({ baseURL: env.server.baseUrl });
  const request = context.request;
  await request.get('/api/v1/auth/check');
  const token = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await request.post('/api/v1/auth/login', {
    data: { email: env.admin.email, password: env.admin.password },
    headers: { 'x-xsrf-token': token },
  });
  expect(res.status()).toBe(200);
  return request;
}

const root = (page: Page, tag: string) => page.locator(tag);

describe('<poruch-report> on a foreign origin', () => {
  it('validates, then stores an anonymous report that administrators see', async () => {
    const { context, page, tracked } = await trackedContext(env);
    const errors = collectErrors(page);
    await page.goto(
      await env.hostPage(
        'report',
        `<poruch-report api-base="{{API}}" service-id="${service.id}"></poruch-report>`,
      ),
    );
    await waitForState(page, 'poruch-report');
    await page.evaluate(() => {
      document.addEventListener('poruch:report-sent', (e) => {
        (window as unknown as { __sent: unknown }).__sent = (e as CustomEvent).detail;
      });
    });
    const report = root(page, 'poruch-report');

    // No reason: the form says so and sends nothing.
    await report.locator('[part~="submit"]').click();
    await expect.poll(() => report.locator('[part~="field-error"]').count()).toBe(1);
    expect(tracked.apiRequests.filter((r) => r.method === 'POST')).toEqual([]);

    const description = `Foreign-origin report ${Date.now()}`;
    await report.getByLabel(ua('report_reason.no_contact')).check();
    await report.locator('textarea').fill(description);
    const sent = page.waitForResponse(
      (r) => r.url().endsWith('/api/v1/reports') && r.request().method() === 'POST',
      { timeout: LONG },
    );
    await report.locator('[part~="submit"]').click();
    const res = await sent;
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await expect
      .poll(() => report.locator('[part~="status-success"]').textContent())
      .toContain(ua('success.report_sent'));
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __sent: unknown }).__sent))
      .toEqual({ serviceId: service.id, reportId: id });
    expect((await tracked.fetches()).every((f) => f.credentials === 'omit')).toBe(true);
    await tracked.expectNoCookies();
    await screenshot(page, 'widgets-report-sent');

    // Stored: the administrators' list has it, with the reason and the text.
    const admin = await adminApi();
    const list = (await (await admin.get('/api/v1/admin/reports?pageSize=50')).json()) as {
      items: { id: string; reason: string; description: string; service: { id: string } | null }[];
    };
    const stored = list.items.find((r) => r.id === id);
    expect(stored).toMatchObject({ reason: 'no_contact', description });
    expect(stored!.service?.id).toBe(service.id);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('<poruch-service> on a foreign origin', () => {
  it('switches tabs with the arrow keys, counts "used" once, opens the report form, fires back', async () => {
    const { context, page, tracked } = await trackedContext(env);
    const errors = collectErrors(page);
    await page.goto(
      await env.hostPage(
        'service',
        `<poruch-service api-base="{{API}}" service-id="${service.id}"></poruch-service>`,
      ),
    );
    await waitForState(page, 'poruch-service');
    const profile = root(page, 'poruch-service');
    await expect.poll(() => profile.locator('[part~="title"]').textContent()).toBe(service.name);

    // Tabs: arrows move the selection and the focus, Home and End go to the ends. Keys are
    // pressed only once the tab list has settled: three tabs, the first selected and the only
    // one in the tab order, and the focus on it.
    const tabs = profile.locator('[role="tab"]');
    await expect.poll(() => tabs.count()).toBe(3);
    await expect
      .poll(() => tabs.evaluateAll((all) => all.map((t) => (t as HTMLElement).tabIndex)))
      .toEqual([0, -1, -1]);
    expect(await tabs.first().getAttribute('aria-selected')).toBe('true');
    await tabs.first().focus();
    await expect.poll(() => focused(page)).toContain(ua('service_profile.tab_services'));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => focused(page)).toContain(ua('service_profile.tab_vacancies'));
    await expect.poll(() => profile.locator('[part~="vacancy"]').count()).toBeGreaterThan(0);
    await page.keyboard.press('End');
    await expect.poll(() => tabs.nth(2).getAttribute('aria-selected')).toBe('true');
    expect(await profile.locator('[role="tabpanel"]:not([hidden])').textContent()).toContain(
      ua('service_profile.address'),
    );
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tabs.nth(2).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    await expect.poll(() => tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'widgets-service-profile');

    // "I have used this service": one POST, the count goes up by one, the button is done.
    const usedButton = profile.locator('[part~="used-button"]');
    const used = page.waitForResponse((r) => r.url().endsWith('/used'), { timeout: LONG });
    await usedButton.click();
    expect((await used).status()).toBe(200);
    await expect
      .poll(() => profile.locator('[part~="used"]').textContent())
      .toContain(ua('home.used_count', { count: service.usedCount + 1 }));
    expect(await usedButton.isDisabled()).toBe(true);
    expect(await usedButton.getAttribute('aria-pressed')).toBe('true');
    // A reload in the same browser keeps it marked and does not count again.
    await page.reload();
    await waitForState(page, 'poruch-service');
    await expect.poll(() => usedButton.isDisabled()).toBe(true);
    const after = (await (
      await fetch(`${env.server.baseUrl}/api/v1/services/${service.id}`)
    ).json()) as { usedCount: number };
    expect(after.usedCount).toBe(service.usedCount + 1);
    expect(tracked.apiRequests.filter((r) => r.url.endsWith('/used'))).toHaveLength(1);

    // The report button opens the form in place; cancel gives the focus back.
    await profile.locator('[part~="report-button"]').click();
    await expect.poll(() => profile.locator('form[part~="form"]').count()).toBe(1);
    // The form takes the focus in an effect, a frame after it appears.
    await expect.poll(() => focused(page)).toContain(ua('report_form.title'));
    await profile.getByRole('button', { name: ua('common.cancel') }).click();
    await expect.poll(() => focused(page)).toContain(ua('report_form.open'));

    // Back without back-href: a button firing poruch:back (bubbling, composed).
    await page.evaluate(() => {
      document.addEventListener('poruch:back', (e) => {
        (window as unknown as { __back: unknown }).__back = (e as CustomEvent).detail;
      });
    });
    await profile.locator('[part~="back"]').click();
    expect(await page.evaluate(() => (window as unknown as { __back: unknown }).__back)).toEqual({
      serviceId: service.id,
    });
    expect((await tracked.fetches()).every((f) => f.credentials === 'omit')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with back-href the back link navigates, unless a listener prevents it', async () => {
    const { context, page } = await trackedContext(env);
    const url = await env.hostPage(
      'service-back',
      `<poruch-service api-base="{{API}}" service-id="${service.id}" back-href="list.html"></poruch-service>`,
    );
    await env.hostPage('list', '<h1>List</h1>');
    await page.goto(url);
    await waitForState(page, 'poruch-service');
    const back = root(page, 'poruch-service').locator('a[part~="back"]');
    // A back-href on the page's own origin is shown as its resolved path.
    expect(await back.getAttribute('href')).toBe('/list.html');
    // A single-page host handles it itself.
    await page.evaluate(() =>
      document.addEventListener('poruch:back', (e) => e.preventDefault(), { once: true }),
    );
    await back.click();
    expect(page.url()).toBe(url);
    await Promise.all([page.waitForURL(`${env.site.origin}/list.html`), back.click()]);
    await context.close();
  });

  it('a javascript: back-href is not a link', async () => {
    const { context, page } = await trackedContext(env);
    await page.goto(
      await env.hostPage(
        'service-evil',
        `<poruch-service api-base="{{API}}" service-id="${service.id}" back-href="javascript:alert(1)"></poruch-service>`,
      ),
    );
    await waitForState(page, 'poruch-service');
    // The button first (waited for), so the link's absence is read from a rendered profile.
    await expect
      .poll(() => root(page, 'poruch-service').locator('button[part~="back"]').count())
      .toBe(1);
    expect(await root(page, 'poruch-service').locator('a[part~="back"]').count()).toBe(0);
    await context.close();
  });
});

describe('<poruch-dashboard> on a foreign origin', () => {
  it('shows the login and dashboard links and calls nothing with credentials', async () => {
    const { context, page, tracked } = await trackedContext(env);
    const errors = collectErrors(page);
    await page.goto(
      await env.hostPage('dashboard', '<poruch-dashboard api-base="{{API}}"></poruch-dashboard>'),
    );
    await waitForState(page, 'poruch-dashboard');
    const dash = root(page, 'poruch-dashboard');
    const login = dash.locator('[part~="login-link"]');
    expect(await login.textContent()).toBe(ua('dashboard.open_login'));
    // The link is a button: its text must not take the button's colour.
    const colours = await login.evaluate((e) => {
      const cs = getComputedStyle(e);
      return { color: cs.color, background: cs.backgroundColor };
    });
    expect(colours.color).not.toBe(colours.background);
    expect(colours.color).toBe('rgb(255, 255, 255)');
    expect(await login.getAttribute('href')).toBe(
      `${env.server.baseUrl}/login?back=${encodeURIComponent('/dashboard')}`,
    );
    expect(
      await dash.getByRole('link', { name: ua('dashboard.open_dashboard') }).getAttribute('href'),
    ).toBe(`${env.server.baseUrl}/dashboard`);
    // Only the bundles came from the server: no API call, with or without credentials.
    expect(tracked.apiRequests.filter((r) => r.url.includes('/api/'))).toEqual([]);
    expect((await tracked.fetches()).filter((f) => f.credentials !== 'omit')).toEqual([]);
    await tracked.expectNoCookies();
    await screenshot(page, 'widgets-dashboard-foreign');
    expect(errors).toEqual([]);
    await context.close();
  });
});
