/**
 * Duplicate detection in Chromium: a partner adding a service next to a lookalike sees it once
 * the address is confirmed, says "a different service" (Ukrainian) or "this is mine" (English);
 * the administrator sees "Possible duplicates" with the partner's note, declines one as a
 * duplicate with the reason written for them, and approves the claim. Screenshots at 375 and
 * 1280 px of the candidates and of the administrators' views, in both languages.
 */
import { createI18n, translator, type LocaleCode } from '@poruch/core';
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
import {
  acceptConfirm,
  apiCall,
  exactLabel,
  POLL,
  registerPartner,
  screen,
} from './helpers/screens.js';

const T = { ua: translator(createI18n('ua')), en_GB: translator(createI18n('en_GB')) };
const PASSWORD = 'partner password 123';

let server: RunningServer;
let browser: Browser;
let root: { email: string; password: string };
let lookalike: { id: string; name: string };
const errors: string[] = [];

/** One page for the whole file each: a partner's and the administrator's. */
let partnerPage: Page;
let adminPage: Page;

/** A page (a context of its own) of a visitor, a new partner or the administrator. */
async function pageAs(who: 'visitor' | 'partner' | 'admin'): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  await context.addInitScript(() => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
  });
  if (who === 'admin') await apiCall(context, server.baseUrl, 'POST', 'auth/login', root);
  else if (who === 'partner')
    await registerPartner(
      context,
      server.baseUrl,
      'partner@poruch.test',
      PASSWORD,
      'Автосервіс Мотор',
    );
  const page = await context.newPage();
  errors.push(...collectErrors(page));
  return page;
}

/** Opens `url` in `locale` (the app takes `?lang=`). */
async function open(page: Page, url: string, locale: LocaleCode): Promise<void> {
  await page.goto(`${server.baseUrl}${url}${url.includes('?') ? '&' : '?'}lang=${locale}`);
}

/**
 * Adds "Leleka" in Warsaw through the service form, at registration (a visitor) or in the
 * dashboard (the partner), answering `answer` about the lookalike the form shows; returns the
 * new service's id.
 */
async function addLookalike(
  locale: LocaleCode,
  answer: 'mine' | 'different',
  via: 'registration' | 'dashboard',
): Promise<string> {
  const t = T[locale];
  const page = via === 'dashboard' ? partnerPage : await pageAs('visitor');
  if (via === 'dashboard') {
    await open(page, '/dashboard/services/new', locale);
    await screen(page, 'dashboard');
  } else {
    await open(page, '/provide-help', locale);
    await screen(page, 'provide-help');
    await page.getByLabel(t('field.firstName')).fill('Олена');
    await page.getByLabel(t('field.email')).fill('visitor@poruch.test');
    await page.getByLabel(exactLabel(t('field.password'))).fill(PASSWORD);
    await page.getByLabel(t('field.confirmPassword')).fill(PASSWORD);
  }
  await page.getByLabel(new RegExp(`^${t('registration.company_name')}`)).fill('Leleka');
  await page.getByLabel(new RegExp(`^${t('field.countryCode')}`)).selectOption('PL');
  await page.getByRole('combobox', { name: new RegExp(`^${t('field.address')}`) }).fill('Warszawa');
  await page.getByRole('button', { name: t('registration.find_address') }).click();
  const panel = page.getByTestId('duplicates');
  await page.getByLabel(t('field.addressConfirmed')).waitFor();
  // Not before the address is confirmed.
  expect(await panel.count()).toBe(0);
  await page.getByLabel(t('field.addressConfirmed')).check();
  await panel.getByRole('link', { name: lookalike.name }).waitFor();
  await panel.getByRole('heading', { name: t('duplicates.title') }).waitFor();
  await panel.getByText(t('duplicates.reason.name_same_place')).waitFor();
  const group = panel.getByRole('group', {
    name: t('duplicates.answer_legend', { name: lookalike.name }),
  });
  await group.getByLabel(t(`duplicates.${answer}`)).check();
  if (answer === 'mine')
    await panel.getByText(t('duplicates.claim_notice', { name: lookalike.name })).waitFor();
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, `duplicates-panel-${answer}-${locale}`);
  const endpoint = via === 'dashboard' ? '/api/v1/my/services' : '/api/v1/auth/register';
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(endpoint) && r.request().method() === 'POST',
  );
  if (via === 'registration') await page.getByLabel(t('field.termsAgreed')).check();
  const submit = via === 'dashboard' ? 'add_service.submit' : 'registration.submit';
  await page.getByRole('button', { name: t(submit) }).click();
  const res = await saved;
  expect(res.status()).toBe(201);
  const body = (await res.json()) as { id: string } | { service: { id: string } };
  const id = 'service' in body ? body.service.id : body.id;
  if (via === 'dashboard') await page.waitForURL(`**/dashboard/services/${id}`);
  else {
    await page.waitForURL(`**/dashboard`);
    await page.context().close();
  }
  return id;
}

beforeAll(async () => {
  const dataDir = await makeDataDir();
  root = await createAdmin(dataDir, 'root@poruch.test', { isSuper: true });
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();
  // The lookalike: "Лелека" at the place the geocoder gives for Warsaw, approved.
  const context = await browser.newContext();
  const place = (await (
    await context.request.get(`${server.baseUrl}/api/v1/geocode?address=Warszawa&country=PL`)
  ).json()) as { candidates: { lat: number; lng: number }[] };
  const registered = (await apiCall(context, server.baseUrl, 'POST', 'auth/register', {
    account: {
      firstName: 'Ірина',
      lastName: 'Бойко',
      email: 'leleka@poruch.test',
      phone: '',
      locale: 'ua',
      marketingConsent: false,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
    service: {
      name: 'Лелека',
      countryCode: 'PL',
      category: 'for_kids',
      address: 'ul. Nowy Świat 5, Warszawa',
      addressDetails: { ...place.candidates[0], displayName: 'Warszawa', city: 'Warszawa' },
      addressConfirmed: true,
    },
    termsAgreed: true,
  })) as { service: { id: string } };
  lookalike = { id: registered.service.id, name: 'Лелека' };
  await context.clearCookies();
  await apiCall(context, server.baseUrl, 'POST', 'auth/login', root);
  await apiCall(context, server.baseUrl, 'POST', `admin/services/${lookalike.id}/approve`, {});
  await context.close();
  [partnerPage, adminPage] = await Promise.all([pageAs('partner'), pageAs('admin')]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('duplicate detection', () => {
  let different: string;
  let mine: string;

  it('shows the lookalike once the address is confirmed, at registration and in the dashboard; each answer goes with the service', async () => {
    different = await addLookalike('ua', 'different', 'registration');
    mine = await addLookalike('en_GB', 'mine', 'dashboard');
  });

  it('shows the administrators the possible duplicates with the note, and declines as a duplicate with the reason prefilled', async () => {
    for (const [locale, id, note] of [
      ['en_GB', mine, 'said_mine'],
      ['ua', different, 'said_different'],
    ] as const) {
      const t = T[locale];
      const page = adminPage;
      await open(page, `/admin/services/${id}`, locale);
      const section = page.getByTestId('possible-duplicates');
      await section.getByRole('heading', { name: t('duplicates.review_title') }).waitFor();
      const item = section.locator(`[data-candidate="${lookalike.id}"]`);
      await item.getByRole('link', { name: lookalike.name }).waitFor();
      expect(await item.getByRole('link').getAttribute('href')).toBe(`/services/${lookalike.id}`);
      await item
        .getByText(t(`duplicates.${note}`, { status: t('duplicates.claim_status.open') }))
        .waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `duplicates-review-${locale}`);
      if (locale === 'ua') {
        await item.getByRole('button', { name: t('duplicates.decline_as_duplicate') }).click();
        const reason = page.getByLabel(new RegExp(`^${t('admin.decline_reason')}`));
        await expect
          .poll(() => reason.inputValue(), POLL)
          .toBe(
            t('duplicates.decline_reason', {
              name: lookalike.name,
              url: `${server.baseUrl}/services/${lookalike.id}`,
            }),
          );
        await screenshot(page, 'duplicates-decline-ua');
        await page
          .locator('#decline-form')
          .getByRole('button', { name: t('admin.decline') })
          .click();
        await acceptConfirm(page);
        await page.locator('.badge--declined').waitFor();
      }
    }
  });

  it('lists the claim with both records for the administrators, and approves it', async () => {
    for (const locale of ['ua', 'en_GB'] as const) {
      const t = T[locale];
      const page = adminPage;
      await open(page, '/admin/claims', locale);
      await page.getByRole('heading', { name: t('duplicates.claims_title'), level: 1 }).waitFor();
      const claim = page.locator(`[data-claim="${lookalike.id}"]`);
      await claim.getByText(t('duplicates.submitted')).waitFor();
      await claim.getByText(t('duplicates.listed')).waitFor();
      await claim.getByText('Leleka', { exact: true }).waitFor();
      await claim.getByRole('link', { name: lookalike.name }).waitFor();
      await screenshot(page, `duplicates-claims-${locale}`);
      if (locale === 'ua') {
        // Paged by the URL's page, as the other admin lists: page 2 of one claim is past the end,
        // so the list goes back to its one page.
        await open(page, '/admin/claims?page=2', locale);
        await page.locator(`[data-claim="${lookalike.id}"]`).waitFor();
        await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBeNull();
      }
      if (locale === 'en_GB') {
        await claim.getByRole('button', { name: t('duplicates.approve_claim') }).click();
        await acceptConfirm(page);
        await page.getByText(t('duplicates.claims_empty')).waitFor();
        const gone = await page
          .context()
          .request.get(`${server.baseUrl}/api/v1/admin/services/${mine}`);
        expect(gone.status()).toBe(404);
      }
    }
    expect(errors).toEqual([]);
  });
});
