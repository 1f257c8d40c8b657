/**
 * The yearly re-confirmation on the site (docs/product.md § Re-confirmation): the owner's
 * dashboard shows each service's state with its "Still active" button, the profile and the
 * search cards say "Not confirmed since <month year>" or "Confirmed <month year>", a lapsed
 * service's profile is gone, the administrators' "stale" filter lists the late ones, and the
 * mail's one-click page confirms with a signed link and refuses a forged one. Services in every
 * state are written into the embedded database before the built server starts. One server and
 * one browser for the file.
 */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createI18n,
  formatMonthYear,
  translator,
  type LocaleCode,
  type ServiceInput,
} from '@poruch/core';
import { openDatabase, seedPartnerService } from '@poruch/server/testing';
import {
  createAdmin,
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import {
  POLL,
  expectAccessible,
  loginUi,
  newPage,
  openApp,
  warsawService,
} from './helpers/screens.js';

const T = { ua: translator(createI18n('ua')), en_GB: translator(createI18n('en_GB')) };
const SECRET = 'reconfirm-e2e-secret-0123456789abcdef';
const DAY = 86_400_000;
const PASSWORD = 'correct horse battery';
const OWNER = 'owner@reconfirm.test';

/** Days since the re-confirmation mail of each service (null: confirmed 60 days ago, no mail). */
const STATES = {
  fresh: { name: 'Салон «День»', mailed: null, confirmation: 'current' },
  mailed: { name: 'Кав’ярня «Ранок»', mailed: 5, confirmation: 'current' },
  overdue: { name: 'Пекарня «Вечір»', mailed: 45, confirmation: 'overdue' },
  lapsed: { name: 'Майстерня «Ніч»', mailed: 100, confirmation: 'lapsed' },
} as const;
type State = keyof typeof STATES;

let server: RunningServer;
let browser: Browser;
let admin: { email: string; password: string };
const ids = {} as Record<State, string>;
const confirmedAt = {} as Record<State, Date>;

/** The signed "Still active" token of the mail (mail/unsubscribe.ts's signing, purpose `reconfirm`). */
function token(id: string, cycle: Date) {
  const expires = Math.floor((Date.now() + 30 * DAY) / 1000);
  const value = `${id}_${cycle.getTime().toString(36)}_${expires.toString(36)}`;
  const sig = createHmac('sha256', SECRET).update(`reconfirm:${value}`).digest('base64url');
  return `${value}.${sig}`;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, 'admin@reconfirm.test');
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  try {
    const now = Date.now();
    for (const [state, s] of Object.entries(STATES) as [State, (typeof STATES)[State]][]) {
      const { id } = await seedPartnerService(
        database.db,
        {
          email: state === 'fresh' ? OWNER : `${state}@reconfirm.test`,
          password: PASSWORD,
          firstName: 'Олена',
        },
        warsawService(s.name) as ServiceInput,
      );
      ids[state] = id;
      const mailed = s.mailed === null ? null : new Date(now - s.mailed * DAY);
      confirmedAt[state] = new Date(
        (mailed?.getTime() ?? now - 60 * DAY) - (mailed ? 365 * DAY : 0),
      );
      await database.db.execute(`UPDATE services SET
          owner_id = (SELECT id FROM accounts WHERE email = '${OWNER}'),
          confirmed_at = '${confirmedAt[state].toISOString()}',
          reconfirm_mailed_at = ${mailed ? `'${mailed.toISOString()}'` : 'NULL'},
          confirmation = '${s.confirmation}'
        WHERE id = '${id}'`);
    }
  } finally {
    await database.close();
  }
  server = await startServer({
    dataDir,
    env: { SEED_DEMO: 'false', UNSUBSCRIBE_SECRET: SECRET },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const inLanguage = async (page: Page, locale: LocaleCode) =>
  page.addInitScript((l) => localStorage.setItem('locale', l), locale);

/** A page logged in through the login screen (in Ukrainian), then in `locale`. */
async function loggedIn(email: string, password: string, locale: LocaleCode, width: 375 | 1280) {
  const page = await newPage(browser, width);
  await openApp(page, `${server.baseUrl}/login`);
  await loginUi(page, email, password);
  await page.waitForURL(/\/(dashboard|admin)/);
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  return page;
}

const label = (locale: LocaleCode, state: State) => {
  const at = confirmedAt[state];
  return state === 'overdue'
    ? T[locale]('home.not_confirmed_since', { date: formatMonthYear(at, locale, { after: true }) })
    : T[locale]('home.confirmed', { date: formatMonthYear(at, locale) });
};

describe('yearly re-confirmation', () => {
  it(
    'profile and search cards: "Not confirmed since", "Confirmed"; a lapsed profile is gone',
    { timeout: 90_000 },
    async () => {
      for (const locale of ['ua', 'en_GB'] as const) {
        const page = await newPage(browser, 375);
        await inLanguage(page, locale);
        await openApp(page, `${server.baseUrl}/services/${ids.overdue}`);
        // Inside the profile's shadow root (Playwright's CSS pierces it).
        const mark = page.locator('[part="confirmed"]');
        await expect.poll(() => mark.textContent(), POLL).toBe(label(locale, 'overdue'));
        await expectAccessible(page);
        await screenshot(page, `reconfirm-profile-overdue-${locale}`);

        await openApp(page, `${server.baseUrl}/services/${ids.fresh}`);
        const fresh = page.locator('[part="confirmed"][data-confirmation="current"]');
        await expect.poll(() => fresh.textContent(), POLL).toBe(label(locale, 'fresh'));

        // Home's search: the overdue service is last, with its note; the lapsed one is not there.
        await openApp(page, `${server.baseUrl}/?q=${encodeURIComponent('Warszawa')}`);
        const cards = page.locator('[data-testid="results"] .card');
        await expect.poll(() => cards.count(), POLL).toBe(3);
        await expect
          .poll(() => cards.last().locator('.card__title').textContent())
          .toBe(STATES.overdue.name);
        expect(await cards.last().locator('[data-confirmation]').textContent()).toBe(
          label(locale, 'overdue'),
        );
        expect(await page.getByText(STATES.lapsed.name).count()).toBe(0);
        await screenshot(page, `reconfirm-search-${locale}`);
        await page.close();
      }
      const gone = await fetch(`${server.baseUrl}/api/v1/services/${ids.lapsed}`);
      expect(gone.status).toBe(404);
    },
  );

  it('administrators filter the services not confirmed in time', async () => {
    for (const locale of ['ua', 'en_GB'] as const) {
      const page = await loggedIn(admin.email, admin.password, locale, 1280);
      await openApp(page, `${server.baseUrl}/admin?stale=true`);
      const rows = page.locator('.data-table tbody tr');
      await expect.poll(() => rows.count(), POLL).toBe(2);
      expect(await page.locator('#admin-stale').inputValue()).toBe('true');
      expect(await rows.locator('[data-confirmation="lapsed"]').textContent()).toBe(
        T[locale]('admin.confirmation_lapsed'),
      );
      await expectAccessible(page);
      await screenshot(page, `reconfirm-admin-stale-${locale}`);
      await page.close();
    }
  });

  it('the owner sees each state in the dashboard and confirms with "Still active"', async () => {
    for (const locale of ['ua', 'en_GB'] as const) {
      const page = await loggedIn(OWNER, PASSWORD, locale, 1280);
      await openApp(page, `${server.baseUrl}/dashboard/services`);
      const card = (state: State) => page.locator(`[data-service-id="${ids[state]}"]`);
      const button = (state: State) =>
        card(state).getByRole('button', { name: T[locale]('my_services.reconfirm_button') });
      await expect.poll(() => button('mailed').count(), POLL).toBe(1);
      expect(await button('fresh').count()).toBe(0);
      for (const state of ['mailed', 'overdue', 'lapsed'] as const) {
        expect(await card(state).locator('[part="reconfirm"]').textContent()).toBe(
          T[locale](`my_services.reconfirm_${STATES[state].confirmation}`),
        );
      }
      await expectAccessible(page);
      await screenshot(page, `reconfirm-dashboard-${locale}`);
      await page.close();
    }

    const page = await loggedIn(OWNER, PASSWORD, 'ua', 375);
    await openApp(page, `${server.baseUrl}/dashboard/services`);
    const lapsed = page.locator(`[data-service-id="${ids.lapsed}"]`);
    await lapsed.getByRole('button', { name: T.ua('my_services.reconfirm_button') }).click();
    await page.getByText(T.ua('success.service_confirmed')).first().waitFor();
    await expect.poll(() => lapsed.locator('[part="reconfirm"]').count(), POLL).toBe(0);
    // Back in public at once.
    const back = await fetch(`${server.baseUrl}/api/v1/services/${ids.lapsed}`);
    expect(back.status).toBe(200);
    expect((await back.json()).confirmation).toBe('current');
    await page.close();
  });

  it('the mail’s Update link leads through the login to the service’s editor', async () => {
    const page = await newPage(browser, 375);
    await openApp(page, `${server.baseUrl}/dashboard/services/${ids.overdue}`);
    await page.waitForURL(/\/login\?back=/);
    await loginUi(page, OWNER, PASSWORD);
    await page.waitForURL(new RegExp(`/dashboard/services/${ids.overdue}`));
    await page.locator('#service-title', { hasText: T.ua('my_services.edit_service') }).waitFor();
    const values = () =>
      page.$$eval('input', (inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    await expect.poll(values, POLL).toContain(STATES.overdue.name);
    await page.close();
  });

  it('the mail’s one-click page confirms without login and refuses a forged link', async () => {
    for (const locale of ['ua', 'en_GB'] as const) {
      const page = await newPage(browser, 375);
      await inLanguage(page, locale);
      const good = token(ids.mailed, confirmedAt.mailed);
      const forged = `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`;
      await openApp(page, `${server.baseUrl}/confirm-service?token=${forged}`);
      const card = page.locator('[data-screen="reconfirm"] [data-state]');
      await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('refused');
      await page.getByText(T[locale]('error.reconfirm_link_invalid')).waitFor();
      await screenshot(page, `reconfirm-link-refused-${locale}`);

      await openApp(page, `${server.baseUrl}/confirm-service?token=${good}`);
      await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('confirmed');
      await page.getByText(T[locale]('reconfirm.done', { name: STATES.mailed.name })).waitFor();
      await expectAccessible(page);
      await screenshot(page, `reconfirm-link-done-${locale}`);
      await page.close();
    }
    const mine = await fetch(`${server.baseUrl}/api/v1/services/${ids.mailed}`);
    expect((await mine.json()).confirmation).toBe('current');
  });
});
