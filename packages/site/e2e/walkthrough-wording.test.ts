/**
 * The wording of every screen, as a visitor, a partner and an administrator see it, in both
 * languages: no placeholder is left in the rendered text (`{salary}`, `{{count}}`) and no
 * translation is missing. Then the forms: an empty field says "required" (not its length rule),
 * an empty password confirmation says so too, a failure the form shows gets no toast as well, and
 * a destructive confirmation has the danger style. One server and one browser for the file.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createI18n, translator, type LocaleCode } from '@poruch/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  inLanes,
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import {
  POLL,
  apiCall,
  exactLabel,
  loginUi,
  registerPartner,
  screen,
  visitInApp,
} from './helpers/screens.js';

const T = { ua: translator(createI18n('ua')), en_GB: translator(createI18n('en_GB')) };
const PARTNER = { email: 'wording@poruch.test', password: 'wording-pass-42' };

let server: RunningServer;
let browser: Browser;
let admin: { email: string; password: string };
let partnerServiceId: string;
let approvedServiceId: string;

beforeAll(async () => {
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, 'wording-admin@poruch.test', { isSuper: true });
  // The demo catalogue: vacancies with salaries, approved profiles, reports.
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  const context = await newContext();
  const registered = await registerPartner(
    context,
    server.baseUrl,
    PARTNER.email,
    PARTNER.password,
    'Перукарня «Слово»',
  );
  partnerServiceId = registered.service.id;
  const found = (await (
    await context.request.get(`${server.baseUrl}/api/v1/services?pageSize=1`)
  ).json()) as { items: { id: string }[] };
  approvedServiceId = found.items[0]!.id;
  await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newContext(locale: LocaleCode = 'ua'): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
    serviceWorkers: 'block',
  });
  await context.route(/tile\.openstreetmap\.org/, (r) => r.abort());
  await context.addInitScript((locale: string) => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
    localStorage.setItem('locale', locale);
    document.cookie = `locale=${locale}; path=/`;
  }, locale);
  return context;
}

/** A context logged in through the API (session cookie and anti-forgery token). */
async function loggedIn(locale: LocaleCode, who: { email: string; password: string }) {
  const context = await newContext(locale);
  await apiCall(context, server.baseUrl, 'POST', 'auth/login', who);
  return context;
}

/** The home page's results have arrived: a list, or its empty state. */
const HOME_READY = '[data-testid="results"], .empty';

/** Waits until the app knows the login state and the screen's data has arrived. */
async function open(page: Page, url: string): Promise<void> {
  await visitInApp(page, `${server.baseUrl}${url}`);
  await page
    .locator(url.startsWith('/?') || url === '/' ? HOME_READY : 'h1')
    .first()
    .waitFor();
  // Lists and profiles show their loading state until their call answers.
  await expect
    .poll(() => page.locator('[aria-busy="true"], .state--loading').count(), POLL)
    .toBe(0);
}

/**
 * The placeholders and missing translations in what the page shows: its text (also inside the
 * widgets' shadow roots), the attributes people read (placeholder, aria-label, title, alt) and
 * the document's title.
 */
function leftovers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [document.title];
    const walk = (root: Document | ShadowRoot) => {
      const nodes = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = nodes.nextNode(); n; n = nodes.nextNode()) {
        const parent = n.parentElement?.tagName;
        if (parent !== 'STYLE' && parent !== 'SCRIPT' && parent !== 'NOSCRIPT')
          texts.push(n.textContent ?? '');
      }
      for (const el of root.querySelectorAll('*')) {
        for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
          const value = el.getAttribute(name);
          if (value) texts.push(value);
        }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return texts.flatMap(
      (text) => text.match(/\{\{?\s*[A-Za-z_]\w*\s*\}?\}|Missing translation: \S+/g) ?? [],
    );
  });
}

describe('no placeholder left on any screen', () => {
  const visitor = () => [
    '/',
    '/?view=list',
    '/?mode=vacancies&view=list',
    '/about',
    '/store',
    '/support',
    '/privacy-policy',
    '/disclaimer',
    '/embed',
    '/login',
    '/reset-password',
    '/provide-help',
    `/services/${approvedServiceId}`,
    `/services/${approvedServiceId}/vacancies`,
    `/services/${approvedServiceId}/contacts`,
    '/unsubscribe?token=nothing',
  ];
  const partner = () => [
    '/dashboard',
    '/dashboard/services',
    '/dashboard/services/new',
    `/dashboard/services/${partnerServiceId}`,
  ];
  const administrator = () => [
    '/admin',
    `/admin/services/${partnerServiceId}`,
    '/admin/reports',
    '/admin/campaigns',
    '/admin/audit',
    '/admin/administrators',
  ];
  /** The screens this change touched: their screenshots, at 375px and 1280px. */
  const SHOTS = new Set(['/?mode=vacancies&view=list', '/login', '/provide-help', '/dashboard']);

  for (const locale of ['ua', 'en_GB'] as const) {
    it(`as a visitor, a partner and an administrator, in ${locale}`, async () => {
      const screens: { role: string; url: string }[] = [
        ...visitor().map((url) => ({ role: 'visitor', url })),
        ...partner().map((url) => ({ role: 'partner', url })),
        ...administrator().map((url) => ({ role: 'admin', url })),
      ];
      const found: string[] = [];
      for (const role of ['visitor', 'partner', 'admin']) {
        await inLanes(
          screens.filter((s) => s.role === role),
          3,
          {
            open: async () => {
              const context =
                role === 'visitor'
                  ? await newContext(locale)
                  : await loggedIn(locale, role === 'partner' ? PARTNER : admin);
              return { context, page: await context.newPage() };
            },
            close: ({ context }) => context.close(),
          },
          async ({ page }, { url }) => {
            await open(page, url);
            for (const left of await leftovers(page)) found.push(`${role} ${url}: ${left}`);
            if (SHOTS.has(url))
              await screenshot(page, `wording-${url.replace(/\W+/g, '-')}-${locale}`);
          },
        );
      }
      expect(found).toEqual([]);
    }, 240_000);
  }

  it('finds a leftover placeholder when there is one', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/about');
    await page.evaluate(() => {
      document.querySelector('main h1')!.textContent = 'Зарплата: {salary}';
    });
    expect(await leftovers(page)).toEqual(['{salary}']);
    await context.close();
  });

  it('shows the salary of a vacancy card in its text', async () => {
    const context = await newContext('en_GB');
    const page = await context.newPage();
    await open(page, '/?mode=vacancies&view=list');
    const texts = await page.locator('[data-testid="results"] .card__text').allTextContents();
    const salaries = texts.filter((text) => text.startsWith('Salary: '));
    expect(salaries.length).toBeGreaterThan(0);
    for (const text of salaries) expect(text).toMatch(/^Salary: [^{}]+$/);
    await context.close();
  });
});

describe('form wording', () => {
  const required = (locale: LocaleCode, field: string) =>
    T[locale]('validation.required', { name: T[locale](`field.${field}`) });
  const noToast = async (page: Page) => {
    // The toast would follow the error within a task; give it ample time to appear.
    await page.waitForTimeout(300);
    expect(await page.locator('.toast').count()).toBe(0);
  };

  it('login: empty fields are required; a failed login shows its notice and no toast', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/login');
    await page.getByRole('button', { name: T.ua('login.submit') }).click();
    const form = page.locator('form');
    await form.getByText(required('ua', 'password')).waitFor();
    await form.getByText(required('ua', 'email')).waitFor();
    expect(await form.getByText(T.ua('validation.min_length', { length: 8 })).count()).toBe(0);

    await loginUi(page, PARTNER.email, 'wrong-password-1');
    await form.getByText(T.ua('error.wrong_user_or_password')).waitFor();
    await noToast(page);
    expect(await page.getByText(T.ua('error.wrong_user_or_password')).count()).toBe(1);
    await screenshot(page, 'wording-login-failed-ua');
    await context.close();
  });

  it('registration: an empty password and its confirmation are required', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/provide-help');
    await page.getByRole('button', { name: T.ua('registration.submit') }).click();
    const form = page.locator('form');
    const message = (text: string) => form.getByText(text, { exact: true });
    await message(required('ua', 'password')).waitFor();
    await message(required('ua', 'confirmPassword')).waitFor();
    // A password typed, its confirmation not: the confirmation is still required.
    await page.getByLabel(exactLabel(T.ua('field.password'))).fill('long-enough-1');
    await page.getByRole('button', { name: T.ua('registration.submit') }).click();
    await expect.poll(() => message(required('ua', 'password')).count(), POLL).toBe(0);
    expect(await message(required('ua', 'confirmPassword')).count()).toBe(1);
    expect(await message(T.ua('validation.passwords_must_match')).count()).toBe(0);
    await context.close();
  });

  it('dashboard: the confirmation is required, a wrong current password shows once, deletion is red', async () => {
    const context = await loggedIn('ua', PARTNER);
    const page = await context.newPage();
    await open(page, '/dashboard');
    await screen(page, 'dashboard');
    const credentials = page.getByRole('form', { name: T.ua('credentials.title') });
    await credentials.getByLabel(exactLabel(T.ua('field.newPassword'))).fill('new-password-42');
    await credentials.getByRole('button', { name: T.ua('credentials.submit') }).click();
    await credentials.getByText(required('ua', 'confirmPassword')).waitFor();
    await credentials.getByText(required('ua', 'currentPassword')).waitFor();

    await credentials.getByLabel(T.ua('field.confirmPassword')).fill('new-password-42');
    await credentials.getByLabel(T.ua('field.currentPassword')).fill('not-my-password');
    await credentials.getByRole('button', { name: T.ua('credentials.submit') }).click();
    await credentials.getByText(T.ua('error.wrong_current_password')).waitFor();
    await noToast(page);
    expect(await page.getByText(T.ua('error.wrong_current_password')).count()).toBe(1);

    const deletion = page.locator('section', { hasText: T.ua('account_deletion.title') }).last();
    await deletion.getByRole('button', { name: T.ua('account_deletion.submit') }).click();
    await deletion.getByLabel(T.ua('field.currentPassword')).fill(PARTNER.password);
    await deletion.getByRole('button', { name: T.ua('account_deletion.submit') }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    const accept = dialog.getByRole('button', { name: T.ua('account_deletion.submit') });
    const submit = deletion.getByRole('button', { name: T.ua('account_deletion.submit') });
    const background = (l: typeof accept) =>
      l.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await accept.getAttribute('class')).toContain('button--danger');
    expect(await background(accept)).toBe(await background(submit));
    expect(await background(accept)).toBe('rgb(179, 38, 30)');
    await screenshot(page, 'wording-deletion-confirm-ua');
    await dialog.getByRole('button', { name: T.ua('common.cancel') }).click();
    await context.close();
  });
});
