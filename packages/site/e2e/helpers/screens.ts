import { createRequire } from 'node:module';
import path from 'node:path';
import { createI18n, translator } from '@poruch/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { REPO_ROOT } from '../fixtures/index.js';

/** The Ukrainian texts, as the site shows them by default. */
export const ua = translator(createI18n('ua'));

/** A translated `validation.*` message with a field label, as translateFieldError makes it. */
export const required = (field: string) =>
  ua('validation.required', { name: ua(`field.${field}`) });

const AXE = createRequire(path.join(REPO_ROOT, 'packages/widgets/package.json')).resolve(
  'axe-core/axe.min.js',
);

/** Runs axe-core on the page; returns the serious and critical violations (id: targets). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/** `expect.poll` options with time for a real server to answer (the default is 1 s). */
export const POLL = { timeout: 15_000 } as const;

/** Asserts axe finds nothing serious or critical. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** A field's label exactly, with or without the required-field star. */
export const exactLabel = (text: string): RegExp =>
  new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

/** A page whose CSP lets the test inject axe-core. */
export async function newPage(browser: Browser, width: 375 | 1280 = 1280): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width, height: width === 375 ? 812 : 800 },
    bypassCSP: true,
  });
  // The cookie choice is made (the banner has its own suite), so it covers nothing here.
  await page.addInitScript(() => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
  });
  return page;
}

/** Opens `url` and waits until the app knows the login state and the screen has loaded. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('.app').waitFor();
  await page.waitForFunction(
    () =>
      (
        window as unknown as { __poruch?: { auth: { getState(): { status: string } } } }
      ).__poruch?.auth.getState().status !== 'unknown' && !document.querySelector('.page-loading'),
  );
}

/**
 * Opens `url` (absolute, on the site's origin): loaded the first time (openApp), afterwards
 * through the app's router (history and popstate, as a link does), so a run of screens in one page
 * does not load and start the app again for each. On the way it passes a static page and waits
 * until the target has replaced it: what the page shows afterwards is the target's own, never the
 * previous screen's still there. Screens the server draws itself (a profile's first screen) are
 * meant to be loaded with `openApp` or `page.goto`.
 */
export async function visitInApp(page: Page, url: string): Promise<void> {
  const target = new URL(url);
  if (!page.url().startsWith(target.origin)) {
    await openApp(page, url);
    return;
  }
  const go = (to: string) =>
    page.evaluate((href) => {
      history.pushState(null, '', href);
      dispatchEvent(new PopStateEvent('popstate'));
    }, to);
  const hop = target.pathname === '/about' ? 'support' : 'about';
  await go(`/${hop}`);
  const hopScreen = page.locator(`[data-screen="${hop}"]`);
  await hopScreen.waitFor();
  await go(`${target.pathname}${target.search}`);
  await hopScreen.waitFor({ state: 'detached' });
}

/** Waits for a lazy screen to render. */
export async function screen(page: Page, name: string): Promise<void> {
  await page.locator(`[data-screen="${name}"]`).first().waitFor();
}

/** Accepts the open confirm dialog. */
export async function acceptConfirm(page: Page): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  await dialog.locator('.dialog__actions .button:not(.button--secondary)').click();
  await dialog.waitFor({ state: 'detached' });
}

/** Logs in through the login screen. */
export async function loginUi(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel(ua('field.email')).fill(email);
  await page.getByLabel(exactLabel(ua('field.password'))).fill(password);
  await page.getByRole('button', { name: ua('login.submit') }).click();
}

/** A state-changing API call from the browser context (its cookies and anti-forgery token). */
export async function apiCall(
  context: BrowserContext,
  baseUrl: string,
  method: 'POST' | 'PUT' | 'DELETE',
  apiPath: string,
  data: unknown,
): Promise<unknown> {
  await context.request.get(`${baseUrl}/api/v1/auth/check`);
  const token = (await context.cookies(baseUrl)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await context.request.fetch(`${baseUrl}/api/v1/${apiPath}`, {
    method,
    data: data as object,
    headers: { 'x-xsrf-token': token },
  });
  if (!res.ok()) throw new Error(`${method} ${apiPath}: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** A service body the API accepts, on the map in Warsaw. */
export const warsawService = (name: string) => ({
  name,
  countryCode: 'PL',
  category: 'beauty_and_health',
  address: 'ul. Marszałkowska 10, Warszawa',
  addressDetails: {
    lat: 52.2297,
    lng: 21.0122,
    displayName: 'Warsaw, PL',
    city: 'Warsaw',
    countryCode: 'PL',
    approximate: true,
    source: 'gazetteer',
  },
  website: 'https://example.com',
  phone: '+48 123 456 789',
  descriptionUa: 'Перукарня в центрі Варшави',
  descriptionOther: 'A hair salon in the centre of Warsaw',
  isOnline: false,
  showOnMap: true,
  originalPlace: 'Київ',
  marketingConsent: false,
  addressConfirmed: true,
});

/** Registers a partner with a first service through the API; the context is then logged in. */
export async function registerPartner(
  context: BrowserContext,
  baseUrl: string,
  email: string,
  password: string,
  serviceName: string,
): Promise<{ account: { id: string }; service: { id: string } }> {
  return (await apiCall(context, baseUrl, 'POST', 'auth/register', {
    account: {
      firstName: 'Олена',
      lastName: 'Коваль',
      email,
      phone: '',
      locale: 'ua',
      marketingConsent: false,
      password,
      confirmPassword: password,
    },
    service: warsawService(serviceName),
    termsAgreed: true,
  })) as { account: { id: string }; service: { id: string } };
}
