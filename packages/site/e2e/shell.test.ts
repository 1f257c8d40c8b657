import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectErrors,
  createAdmin,
  launchBrowser,
  makeDataDir,
  screenshot,
  SCREENSHOT_DIR,
  startServer,
  type RunningServer,
} from './fixtures/index.js';

const ADMIN_EMAIL = 'shell-admin@poruch.test';

let server: RunningServer | undefined;
let browser: Browser | undefined;
let admin: { email: string; password: string };

beforeAll(async () => {
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, ADMIN_EMAIL);
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openShell(page: Page) {
  const paths: string[] = [];
  page.on('request', (req) => paths.push(new URL(req.url()).pathname));
  const response = await page.goto(`${server!.baseUrl}/`);
  expect(response?.status()).toBe(200);
  await page.locator('.app[data-state="ready"]').waitFor();
  return paths;
}

describe('site shell', () => {
  it('renders the header, the menu and the logged-out state', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = collectErrors(page);
    const paths = await openShell(page);

    expect(await page.title()).toBe('Poruch — поруч');
    expect(await page.locator('html').getAttribute('lang')).toBe('uk');
    expect(paths).toContain('/env');
    expect(paths).toContain('/api/v1/auth/check');

    const header = page.getByRole('banner');
    await expect.poll(() => header.getByRole('link', { name: /Poruch/ }).count()).toBe(1);
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    const links = await nav
      .getByRole('link')
      .evaluateAll((els) => els.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
    expect(links).toEqual([
      ['Послуги', '/'],
      ['Про нас', '/about'],
      ['Підтримати', '/support'],
      ['Увійти', '/login'],
      ['Зареєструватися', '/provide-help'],
    ]);
    expect(await nav.getByRole('link', { name: 'Послуги' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await nav.getByRole('link', { name: 'Увійти' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/поруч/);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);

    await screenshot(page, 'shell-logged-out');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('collapses the menu into a panel on a phone', async () => {
    const page = await browser!.newPage({ viewport: { width: 375, height: 812 } });
    await openShell(page);
    const login = page.getByRole('link', { name: 'Увійти' });
    expect(await login.isVisible()).toBe(false);

    const toggle = page.getByRole('button', { name: 'Відкрити меню' });
    await toggle.click();
    await login.waitFor({ state: 'visible' });
    expect(
      await page.getByRole('button', { name: 'Закрити меню' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'shell-menu-open-375.png'),
      animations: 'disabled',
    });

    await page.keyboard.press('Escape');
    await login.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('shows the account e-mail when logged in', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    // The first GET hands out the anti-forgery cookie the login POST must echo.
    await context.request.get(`${server!.baseUrl}/api/v1/auth/check`);
    const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const login = await context.request.post(`${server!.baseUrl}/api/v1/auth/login`, {
      data: { email: admin.email, password: admin.password },
      headers: { 'x-xsrf-token': xsrf },
    });
    expect(login.status()).toBe(200);

    await openShell(page);
    await expect
      .poll(() => page.getByTestId('session').textContent())
      .toBe(`Ви увійшли як ${ADMIN_EMAIL}`);
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    expect(await nav.getByRole('link', { name: 'Увійти' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Кабінет' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    await screenshot(page, 'shell-logged-in');

    await nav.getByRole('button', { name: 'Вийти' }).click();
    await page.waitForURL('**/login');
    await page.locator('.app[data-state="ready"]').waitFor();
    expect(await nav.getByRole('link', { name: 'Увійти' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an error state with a retry when the API is down', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    // Only the API is cut: the page itself still comes from the real server.
    await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
    await page.route('**/env', (route) => route.abort('connectionrefused'));
    await page.goto(`${server!.baseUrl}/`);
    await page.locator('.app[data-state="error"]').waitFor();
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toMatch(/недоступний/);
    expect(await page.getByRole('link', { name: 'Увійти' }).isVisible()).toBe(true);
    await screenshot(page, 'shell-api-down');

    await page.unrouteAll();
    await alert.getByRole('button', { name: 'Спробувати ще раз' }).click();
    await page.locator('.app[data-state="ready"]').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.close();
  });
});
