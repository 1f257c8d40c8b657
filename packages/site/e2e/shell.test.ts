import type { Browser, Page } from 'playwright-core';
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
  await page.locator('.app[data-route="home"]').waitFor();
  await page.locator('[data-screen="home"]').waitFor();
  return paths;
}

describe('site shell', () => {
  it('starts with /env and auth/check, in Ukrainian, logged out', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = collectErrors(page);
    const paths = await openShell(page);

    expect(await page.title()).toBe('Поруч — Сервіси українців за кордоном — на мапі та у списку');
    expect(await page.locator('html').getAttribute('lang')).toBe('uk');
    expect(paths).toContain('/env');
    expect(paths).toContain('/api/v1/auth/check');
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    await nav.getByRole('link', { name: 'Увійти' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/поруч/);
    // Home has no footer text.
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('still starts when /env fails', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    await page.route('**/env', (route) => route.abort('connectionrefused'));
    await openShell(page);
    await page
      .getByRole('navigation', { name: 'Головне меню' })
      .getByRole('link', { name: 'Увійти' })
      .waitFor();
    // No toast for the runtime configuration.
    expect(await page.locator('.toast').count()).toBe(0);
    await page.close();
  });

  it('shows account and logout when logged in; logout goes to /login', async () => {
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
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    await nav.getByRole('link', { name: 'Кабінет' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Увійти' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Кабінет' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    await screenshot(page, 'shell-logged-in');

    await nav.getByRole('button', { name: 'Вийти' }).click();
    await page.waitForURL('**/login');
    await nav.getByRole('link', { name: 'Увійти' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
