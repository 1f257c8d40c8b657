import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n, translator, type LocaleCode } from '@poruch/core';
import {
  collectErrors,
  launchBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { expectAccessible, POLL, registerPartner, screen } from './helpers/screens.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();
  // The gazetteer and its prefix index are built on first use (about a second): not the field's time.
  const warm = await fetch(`${server.baseUrl}/api/v1/geocode/suggest?address=Ber`);
  expect(warm.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const RHINELAND = 'Neustadt, Rheinland-Pfalz, DE';
const LOWER_SAXONY = 'Neustadt, Lower Saxony, DE';

let partners = 0;

/** A new logged-in partner on the add-service screen in `locale`, counting the address lookups. */
async function addServicePage(locale: LocaleCode) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
  });
  await context.addInitScript((l) => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
    localStorage.setItem('locale', l);
  }, locale);
  await registerPartner(
    context,
    server.baseUrl,
    `address-${++partners}@poruch.test`,
    'dobryi-den-42',
    `Салон ${locale}`,
  );
  const page = await context.newPage();
  const errors = collectErrors(page);
  const lookups: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/v1/geocode') lookups.push(url.search);
  });
  await page.goto(`${server.baseUrl}/dashboard/services/new`);
  await screen(page, 'dashboard');
  return { page, errors, lookups, close: () => context.close() };
}

const combobox = (page: Page, t: ReturnType<typeof translator>) =>
  page.getByRole('combobox', { name: new RegExp(`^${t('field.address')}`) });

describe.each(['ua', 'en_GB'] as const)('the address field in %s', (locale) => {
  const t = translator(createI18n(locale));

  it('suggests places while typing (taken with the keyboard, no lookup after), and offers each Neustadt by its region', async () => {
    const { page, errors, lookups, close } = await addServicePage(locale);
    await page.getByLabel(new RegExp(`^${t('field.countryCode')}`)).selectOption('DE');
    const input = combobox(page, t);
    // The hint says what happens.
    expect(
      await page.locator(`#${await input.getAttribute('aria-describedby')}`).textContent(),
    ).toBe(t('registration.address_hint'));
    await input.pressSequentially('Hauptstraße 1, Neus', { delay: 20 });
    const list = page.getByRole('listbox', { name: t('registration.address_suggestions') });
    await list.waitFor();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    expect(await input.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    const options = await list.getByRole('option').allTextContents();
    expect(options).toContain(RHINELAND);

    // Down to the Neustadt in Rhineland-Palatinate.
    for (let i = 0; i <= options.indexOf(RHINELAND); i++) await input.press('ArrowDown');
    const active = page.locator(`#${await input.getAttribute('aria-activedescendant')}`);
    expect(await active.textContent()).toBe(RHINELAND);
    expect(await active.getAttribute('aria-selected')).toBe('true');
    await screenshot(page, `address-suggest-open-${locale}`);

    // Escape closes the list, Down opens it again, Enter takes the option.
    await input.press('Escape');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    for (let i = 0; i < options.indexOf(RHINELAND); i++) await input.press('ArrowDown');
    await input.press('Enter');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await input.inputValue()).toBe(`Hauptstraße 1, ${RHINELAND}`);
    await page
      .getByRole('status')
      .filter({ hasText: t('registration.address_found', { address: RHINELAND }) })
      .waitFor();
    await page.getByLabel(t('field.addressConfirmed')).waitFor();
    // The suggestion is the place: nothing is looked up again.
    expect(lookups).toEqual([]);
    await screenshot(page, `address-suggest-picked-${locale}`);
    await expectAccessible(page);

    // Only the town typed, and "Find": each Neustadt is an option named by its region.
    await page.getByLabel(new RegExp(`^${t('registration.company_name')}`)).fill('Перукарня');
    await combobox(page, t).fill('Hauptstraße 1, Neustadt');
    await page.getByRole('button', { name: t('registration.find_address') }).click();
    await expect
      .poll(() => page.getByText(t('validation.ambiguous_address')).count(), POLL)
      .toBe(1);
    expect(await page.getByRole('listbox').isVisible()).toBe(false);
    const group = page.getByRole('group', { name: t('registration.choose_address') });
    // Both towns and Hamburg's part of the city of that name.
    expect(await group.getByRole('radio').count()).toBe(3);
    await group.getByLabel('Neustadt, Hamburg, DE').waitFor();
    await group.getByText(t('registration.choose_address_hint')).waitFor();
    await screenshot(page, `address-ambiguous-${locale}`);

    await group.getByLabel(LOWER_SAXONY).check();
    await page
      .getByRole('status')
      .filter({ hasText: t('registration.address_found', { address: LOWER_SAXONY }) })
      .waitFor();
    expect(await page.getByText(t('validation.ambiguous_address')).count()).toBe(0);
    expect(lookups).toEqual([
      `?${new URLSearchParams({ address: 'Hauptstraße 1, Neustadt', country: 'DE' })}`,
    ]);

    // Saved with the place the partner picked.
    await page.getByLabel(t('field.addressConfirmed')).check();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/v1/my/services') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: t('add_service.submit') }).click();
    const body = (await (await saved).json()) as { addressDetails: { displayName: string } };
    expect(body.addressDetails.displayName).toBe(LOWER_SAXONY);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the address field of <poruch-dashboard> on the site', () => {
  it('suggests and takes a place with the keyboard, in a form of fields at their own height', async () => {
    const t = translator(createI18n('en_GB'));
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    await registerPartner(
      context,
      server.baseUrl,
      'address-widget@poruch.test',
      'dobryi-den-42',
      'Салон',
    );
    const page = await context.newPage();
    const errors = collectErrors(page);
    // A page of the site's origin holding the widget, as a partner's own site would.
    await page.route(`${server.baseUrl}/widget-host.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><body><poruch-dashboard lang="en_GB" api-base="${server.baseUrl}"></poruch-dashboard><script type="module" src="/widgets/v0/poruch.js"></script></body></html>`,
      }),
    );
    await page.goto(`${server.baseUrl}/widget-host.html`);
    await page.getByRole('button', { name: t('my_services.add_service') }).click();
    await page.getByLabel(t('field.countryCode')).selectOption('DE');
    // The name's field (label, input, messages) is as tall as what it holds.
    const name = await page.getByLabel(t('field.name')).locator('..').boundingBox();
    expect(name!.height).toBeLessThan(100);

    const input = page.getByRole('combobox', { name: t('field.address') });
    await input.pressSequentially('Hauptstraße 1, Neus', { delay: 20 });
    const list = page.getByRole('listbox', { name: t('registration.address_suggestions') });
    await list.waitFor();
    const options = await list.getByRole('option').allTextContents();
    for (let i = 0; i <= options.indexOf(RHINELAND); i++) await input.press('ArrowDown');
    await screenshot(page, 'address-suggest-widget-en_GB');
    await input.press('Enter');
    expect(await input.inputValue()).toBe(`Hauptstraße 1, ${RHINELAND}`);
    await page.getByText(t('add_service.address_found', { address: RHINELAND })).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
