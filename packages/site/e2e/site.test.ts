import { cp, readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  collectErrors,
  createAdmin,
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';

const ANALYTICS_ID = 'G-E2ETEST01';
const TAG_MANAGER_ID = 'GTM-E2E01';
const ADMIN_EMAIL = 'site-admin@poruch.test';

let server: RunningServer;
let browser: Browser;
let admin: { email: string; password: string };

beforeAll(async () => {
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, ADMIN_EMAIL);
  server = await startServer({
    dataDir,
    // No map tiles from the internet (a failed tile is a console error): the map draws its outline.
    env: { ANALYTICS_ID, TAG_MANAGER_ID, TILE_URL: 'none' },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface ContextOptions {
  width?: number;
  locale?: 'ua' | 'en_GB';
  /** Store a cookie decision, so the banner is not in the way. Defaults to true. */
  decided?: boolean;
}

async function newContext(opts: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.width === 375 ? 812 : 800 },
    // Analytics scripts come from the internet, which the suite does not use.
    serviceWorkers: 'block',
  });
  await context.route(/googletagmanager\.com|google-analytics\.com/, (r) =>
    r.fulfill({ status: 200, contentType: 'text/javascript', body: '/* stub */' }),
  );
  await context.addInitScript(
    ({ locale, decided }) => {
      if (sessionStorage.getItem('e2e-init')) return;
      sessionStorage.setItem('e2e-init', '1');
      localStorage.setItem('poruch_e2e', '1');
      if (locale) localStorage.setItem('locale', locale);
      if (decided) {
        localStorage.setItem('cookies_banner_essentials', 'true');
        localStorage.setItem('cookies_banner_marketing', 'false');
      }
    },
    { locale: opts.locale, decided: opts.decided ?? true },
  );
  return context;
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(`${server.baseUrl}${url}`);
  await page.locator('.app').waitFor();
  // The login state is known once the header shows either login state's items.
  await page.waitForFunction(
    () =>
      (window as any).__poruch?.auth.getState().status !== 'unknown' &&
      !document.querySelector('.page-loading'),
  );
}

const path_ = (page: Page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
};

async function loginInPage(page: Page): Promise<void> {
  await page.evaluate(
    ({ email, password }) => (window as any).__poruch.auth.getState().login({ email, password }),
    { email: admin.email, password: admin.password },
  );
}

describe('routes and access rules', () => {
  it('sends an unknown path home, and renders every public page with its title', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    await open(page, '/no/such/page');
    await page.waitForURL(`${server.baseUrl}/`);
    await expect.poll(() => page.locator('[data-screen="home"]').count()).toBe(1);

    for (const [url, title] of [
      ['/about', 'Про нас'],
      ['/support', 'Підтримати проєкт'],
      ['/store', 'Крамниця'],
      ['/privacy-policy', 'Політика конфіденційності'],
    ] as const) {
      await open(page, url);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      expect(await page.title()).toBe(`${title} — Поруч`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the footer and the top margin everywhere except home and store', async () => {
    const context = await newContext();
    const page = await context.newPage();
    for (const [url, footer] of [
      ['/', false],
      ['/store', false],
      ['/about', true],
      ['/support', true],
      ['/privacy-policy', true],
    ] as const) {
      await open(page, url);
      expect(await page.locator('footer.site-footer').count(), url).toBe(footer ? 1 : 0);
      expect(await page.locator('main.site-main--margin').count(), url).toBe(footer ? 1 : 0);
    }
    await context.close();
  });

  it('sends a logged-out visitor from dashboard to login?back=, and back there after login', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/dashboard/services?tab=2');
    await page.waitForURL(/\/login\?back=/);
    expect(path_(page)).toBe(`/login?back=${encodeURIComponent('/dashboard/services?tab=2')}`);

    await loginInPage(page);
    await page.waitForURL(`${server.baseUrl}/dashboard/services?tab=2`);
    // Logged in: login, reset-password and provide-help send the user home.
    for (const url of ['/login', '/reset-password', '/provide-help']) {
      await open(page, url);
      await page.waitForURL(`${server.baseUrl}/`);
    }
    // Logout goes to /login.
    await page.getByRole('navigation').getByRole('button', { name: 'Вийти' }).click();
    await page.waitForURL(`${server.baseUrl}/login`);
    await context.close();
  });

  it('after a login without back goes to /dashboard', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/login');
    await loginInPage(page);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await context.close();
  });

  it('ignores a back that leaves the site', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/login?back=%2F%2Fevil.example%2Fx');
    await loginInPage(page);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await context.close();
  });

  it('outside ua, login, reset-password, provide-help and dashboard need a login, else home', async () => {
    const context = await newContext({ locale: 'en_GB' });
    const page = await context.newPage();
    for (const url of ['/login', '/reset-password', '/provide-help', '/dashboard']) {
      await open(page, url);
      await page.waitForURL(`${server.baseUrl}/`);
    }
    // No login or register items in the menu outside ua.
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    expect(await nav.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Register' }).count()).toBe(0);
    await loginInPage(page);
    await open(page, '/dashboard');
    expect(path_(page)).toBe('/dashboard');
    await context.close();
  });

  it('goes back with the Back button and scrolls to the top on navigation', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.getByRole('navigation').getByRole('link', { name: 'Про нас' }).click();
    await page.waitForURL('**/about');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForURL('**/privacy-policy');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Політика конфіденційності',
    );
    await context.close();
  });
});

describe('header menu', () => {
  it('shows services, about, support, log in and register when logged out in ua, and account and logout when logged in', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/');
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    const items = () =>
      nav
        .locator('.menu__list > li > *')
        .evaluateAll((els) =>
          els.map((a) => [a.textContent?.trim(), a.getAttribute('href') ?? a.tagName]),
        );
    expect(await items()).toEqual([
      ['Сервіси', '/'],
      ['Про нас', '/about'],
      ['Підтримати', '/support'],
      ['Увійти', '/login'],
      ['Зареєструватися', '/provide-help'],
    ]);
    expect(await nav.getByRole('link', { name: 'Сервіси' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await screenshot(page, 'home');
    await loginInPage(page);
    await open(page, '/about');
    expect(await items()).toEqual([
      ['Сервіси', '/'],
      ['Про нас', '/about'],
      ['Підтримати', '/support'],
      ['Кабінет', '/dashboard'],
      ['Вийти', 'BUTTON'],
    ]);
    // Services is an exact match: not current on /about.
    expect(await nav.getByRole('link', { name: 'Сервіси' }).getAttribute('aria-current')).toBe(
      null,
    );
    await context.close();
  });

  it('collapses into a slide-in panel at 375px that closes when navigation ends', async () => {
    const context = await newContext({ width: 375 });
    const page = await context.newPage();
    await open(page, '/');
    const about = page.getByRole('navigation').getByRole('link', { name: 'Про нас' });
    expect(await about.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Відкрити меню' }).click();
    await about.waitFor({ state: 'visible' });
    await page.screenshot({
      path: path.join(REPO_ROOT, 'screenshots', 'menu-open-375.png'),
      animations: 'disabled',
    });
    await about.click();
    await page.waitForURL('**/about');
    await about.waitFor({ state: 'hidden' });
    expect(
      await page.getByRole('button', { name: 'Відкрити меню' }).getAttribute('aria-expanded'),
    ).toBe('false');
    await context.close();
  });

  it('is not collapsed at 1280px', async () => {
    const context = await newContext({ width: 1280 });
    const page = await context.newPage();
    await open(page, '/');
    expect(await page.getByRole('button', { name: 'Відкрити меню' }).isVisible()).toBe(false);
    expect(
      await page.getByRole('navigation').getByRole('link', { name: 'Про нас' }).isVisible(),
    ).toBe(true);
    await context.close();
  });
});

describe('cookie banner', () => {
  const analyticsScripts = (page: Page) =>
    page
      .locator('script[data-poruch-analytics]')
      .evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).src));
  const stored = (page: Page) =>
    page.evaluate(() => [
      localStorage.getItem('cookies_banner_essentials'),
      localStorage.getItem('cookies_banner_marketing'),
    ]);

  it('shows until a choice is stored; accept stores true/true and loads analytics', async () => {
    const context = await newContext({ decided: false });
    const page = await context.newPage();
    await open(page, '/about');
    const banner = page.getByTestId('cookie-banner');
    await banner.waitFor();
    expect(await banner.evaluate((e) => e.getBoundingClientRect().height)).toBe(100);
    expect(await banner.getByRole('link').getAttribute('href')).toBe('/privacy-policy');
    // No consent yet: no analytics.
    expect(await analyticsScripts(page)).toEqual([]);
    await screenshot(page, 'cookie-banner');

    await banner.getByRole('button', { name: 'Прийняти' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await stored(page)).toEqual(['true', 'true']);
    await expect.poll(() => analyticsScripts(page)).toHaveLength(2);
    const srcs = await analyticsScripts(page);
    expect(srcs.some((s) => s.includes(`id=${ANALYTICS_ID}`))).toBe(true);
    expect(srcs.some((s) => s.includes(`id=${TAG_MANAGER_ID}`))).toBe(true);

    // The choice persists: no banner after a reload, analytics loads again.
    await page.reload();
    await page.locator('.app').waitFor();
    await expect.poll(() => analyticsScripts(page)).toHaveLength(2);
    expect(await page.getByTestId('cookie-banner').count()).toBe(0);
    await context.close();
  });

  it('reject stores true/false and loads no analytics, also after a reload', async () => {
    const context = await newContext({ decided: false });
    const page = await context.newPage();
    await open(page, '/');
    await page.context().addCookies([
      { name: '_ga', value: 'GA1.1.1', url: server.baseUrl },
      { name: '_gid', value: 'GA1.1.2', url: server.baseUrl },
    ]);
    await page.getByTestId('cookie-banner').getByRole('button', { name: 'Відхилити' }).click();
    expect(await stored(page)).toEqual(['true', 'false']);
    await expect
      .poll(async () =>
        (await context.cookies()).map((c) => c.name).filter((n) => n.startsWith('_g')),
      )
      .toEqual([]);
    await page.reload();
    await page.locator('.app').waitFor();
    // Proves that nothing loads, so a bounded wait: after an accept the app's first effects add
    // the scripts, within a frame or two of `.app` showing; 300 ms is many frames.
    await page.waitForTimeout(300);
    expect(await analyticsScripts(page)).toEqual([]);
    expect(await page.getByTestId('cookie-banner').count()).toBe(0);
    await context.close();
  });

  it('preferences: essentials on and disabled, analytics on by default; save off removes analytics', async () => {
    const context = await newContext({ decided: false });
    const page = await context.newPage();
    await open(page, '/');
    await page.getByRole('button', { name: 'Налаштування' }).click();
    const dialog = page.getByRole('dialog', { name: 'Налаштування файлів cookie' });
    const essentials = dialog.getByRole('checkbox', { name: /Необхідні/ });
    const analytics = dialog.getByRole('checkbox', { name: /Аналітичні/ });
    expect(await essentials.isChecked()).toBe(true);
    expect(await essentials.isDisabled()).toBe(true);
    expect(await analytics.isChecked()).toBe(true);
    await screenshot(page, 'cookie-preferences');
    await analytics.uncheck();
    await dialog.getByRole('button', { name: 'Зберегти' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('cookie-banner').count()).toBe(0);
    expect(await stored(page)).toEqual(['true', 'false']);
    expect(await analyticsScripts(page)).toEqual([]);
    await context.close();
  });

  it('preferences: save with analytics on loads analytics', async () => {
    const context = await newContext({ decided: false });
    const page = await context.newPage();
    await open(page, '/');
    await page.getByRole('button', { name: 'Налаштування' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Зберегти' }).click();
    expect(await stored(page)).toEqual(['true', 'true']);
    await expect.poll(() => analyticsScripts(page)).toHaveLength(2);
    await context.close();
  });
});

describe('language switcher', () => {
  it('stores the choice and reloads in the other language', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/about');
    expect(await page.locator('html').getAttribute('lang')).toBe('uk');
    const flag = page.locator('.language__flag');
    expect(await flag.getAttribute('src')).toBe('/flags/4x3/ua.svg');
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('language').selectOption('en_GB');
    await reloaded;
    await page.locator('.app').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en_GB');
    expect(await page.locator('html').getAttribute('lang')).toBe('en-GB');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('About');
    expect(await page.locator('.language__flag').getAttribute('src')).toBe('/flags/4x3/gb.svg');
    const res = await page.request.get(`${server.baseUrl}/flags/4x3/gb.svg`);
    expect(res.status()).toBe(200);
    await screenshot(page, 'about-en');
    await context.close();
  });
});

describe('toasts and the confirm dialog', () => {
  it('shows a failed call as an error toast bottom-centre, 25rem wide; hover pauses it', async () => {
    const context = await newContext();
    const page = await context.newPage();
    // The search call fails (network down): the client shows an error toast.
    await page.route('**/api/v1/services?*', (r) => r.abort('connectionrefused'));
    await open(page, '/');
    const toast = page.locator('.toast').first();
    await toast.waitFor();
    expect(await toast.getAttribute('role')).toBe('alert');
    const box = await page.getByTestId('toasts').boundingBox();
    expect(box!.width).toBe(400);
    expect(Math.abs(box!.x + box!.width / 2 - 640)).toBeLessThan(2);
    expect(box!.y + box!.height).toBeGreaterThan(700);
    await toast.hover();
    expect(await toast.getAttribute('data-paused')).toBe('true');
    await page.mouse.move(5, 5);
    expect(await toast.getAttribute('data-paused')).toBe('false');
    await screenshot(page, 'toast');
    // The main toast's life is 1000000 ms; others 3000 ms.
    const lives = await page.evaluate(() => {
      const s = (window as any).__poruch;
      const a = s.showToast({ severity: 'info', summary: 'main', key: 'main' });
      const b = s.showToast({ severity: 'info', summary: 'plain' });
      const all = s.toasts.getState().toasts;
      return [all.find((x: any) => x.id === a).life, all.find((x: any) => x.id === b).life];
    });
    expect(lives).toEqual([1_000_000, 3000]);
    await context.close();
  });

  it('the confirm dialog sits at 10000; Escape, mask and close button all cancel', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/about');
    const ask = () =>
      page.evaluate(() => {
        (window as any).__result = (window as any).__poruch.confirm({ message: 'Точно?' });
      });
    const result = () => page.evaluate(() => (window as any).__result);
    const dialog = page.getByRole('alertdialog');

    await ask();
    await dialog.waitFor();
    expect(await page.getByTestId('confirm-mask').evaluate((e) => getComputedStyle(e).zIndex)).toBe(
      '10000',
    );
    await screenshot(page, 'confirm');
    // The dialog listens for Escape from the effect that also focuses its accept button: wait
    // for that focus, so the key is not pressed before the dialog listens.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    expect(await result()).toBe('cancel');

    await ask();
    await dialog.waitFor();
    await page.mouse.click(5, 400);
    expect(await result()).toBe('cancel');

    await ask();
    await dialog.getByRole('button', { name: 'Закрити' }).click();
    expect(await result()).toBe('cancel');

    await ask();
    await dialog.getByRole('button', { name: 'Ні' }).click();
    expect(await result()).toBe('reject');
    await ask();
    await dialog.getByRole('button', { name: 'Так' }).click();
    expect(await result()).toBe('accept');
    await context.close();
  });
});

describe('home search in the URL', () => {
  it('keeps mode, view and filters in the URL, and Back undoes them', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/');
    await page.getByTestId('results').waitFor();
    await page.getByRole('button', { name: 'Список' }).click();
    await page.waitForURL('**/?view=list');
    await page.getByLabel('Категорія').selectOption('food');
    await page.waitForURL(/category=food/);
    await page.getByRole('searchbox').fill('kyiv');
    await page.getByRole('button', { name: 'Знайти' }).click();
    await page.waitForURL(/q=kyiv/);
    expect(path_(page)).toBe('/?view=list&category=food&q=kyiv');
    await page.goBack();
    await page.waitForURL(/category=food$/);
    expect(await page.getByRole('searchbox').inputValue()).toBe('');
    await page.goBack();
    expect(await page.getByLabel('Категорія').inputValue()).toBe('');

    // A shared link opens with its search.
    await open(page, '/?mode=vacancies&view=list');
    expect(
      await page.getByRole('button', { name: 'Пошук вакансій' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await context.close();
  });
});

describe('install prompt', () => {
  it('captures beforeinstallprompt and shows an Add/Close dialog', async () => {
    const context = await newContext({ width: 375 });
    const page = await context.newPage();
    await open(page, '/');
    await page.evaluate(() => {
      const e = new Event('beforeinstallprompt', { cancelable: true }) as any;
      e.prompt = () => {
        (window as any).__prompted = true;
        return Promise.resolve();
      };
      e.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(e);
      (window as any).__defaultPrevented = e.defaultPrevented;
    });
    expect(await page.evaluate(() => (window as any).__defaultPrevented)).toBe(true);
    const dialog = page.getByRole('dialog', { name: 'Встановіть застосунок' });
    await dialog.waitFor();
    await screenshot(page, 'install-dialog');
    await dialog.getByRole('button', { name: 'Додати' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as any).__prompted)).toBe(true);
    await context.close();
  });

  it('Close hides the dialog for the session', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await open(page, '/');
    const fire = () =>
      page.evaluate(() => {
        const e = new Event('beforeinstallprompt', { cancelable: true }) as any;
        e.prompt = () => Promise.resolve();
        e.userChoice = Promise.resolve({ outcome: 'dismissed' });
        window.dispatchEvent(e);
      });
    await fire();
    const dialog = page.getByRole('dialog', { name: 'Встановіть застосунок' });
    await dialog.getByRole('button', { name: 'Закрити' }).click();
    await dialog.waitFor({ state: 'detached' });
    await fire();
    // The event's listener runs during the dispatch and React renders before the next frames: two
    // frames later a dialog it opened would be there.
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    expect(await dialog.count()).toBe(0);
    await context.close();
  });

  it('on iOS (not standalone) explains Share, then Add to Home Screen', async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });
    await context.addInitScript(() => {
      localStorage.setItem('cookies_banner_essentials', 'true');
    });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/about`);
    const hint = page.getByTestId('ios-install-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toMatch(/Поділитися.*На початковий екран/);
    expect(await page.locator('.social__link').count()).toBe(4);
    await context.close();
  });
});

describe('SEO and the sitemap', () => {
  it('serves sitemap.xml with the public pages and approved services, and robots.txt', async () => {
    const res = await fetch(`${server.baseUrl}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const xml = await res.text();
    // Each page in both languages, naming the other and the plain address.
    expect(xml).toContain(`<loc>${server.baseUrl}/about?lang=ua</loc>`);
    expect(xml).toContain(`<loc>${server.baseUrl}/about?lang=en_GB</loc>`);
    expect(xml).toContain(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${server.baseUrl}/about"/>`,
    );
    expect((xml.match(/\/services\//g) ?? []).length).toBeGreaterThan(100);
    const robots = await (await fetch(`${server.baseUrl}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${server.baseUrl}/sitemap.xml`);
  });

  it('serves the manifest with PNG icons', async () => {
    const manifest = await (await fetch(`${server.baseUrl}/manifest.webmanifest`)).json();
    expect(manifest.display).toBe('standalone');
    const sizes = manifest.icons.map((i: any) => i.sizes);
    expect(sizes).toContain('192x192');
    expect(sizes).toContain('512x512');
    for (const icon of manifest.icons) {
      expect((await fetch(`${server.baseUrl}${icon.src}`)).status).toBe(200);
    }
  });
});

describe('update prompt', () => {
  let siteDir: string;
  let updServer: RunningServer;

  beforeAll(async () => {
    // A copy of the built site, so the suite can publish a "new version" of the worker.
    siteDir = await mkdtemp(path.join(os.tmpdir(), 'poruch-site-'));
    await cp(path.join(REPO_ROOT, 'packages/site/dist'), siteDir, { recursive: true });
    updServer = await startServer({ env: { SITE_DIR: siteDir, SEED_DEMO: 'false' } });
  });

  afterAll(async () => {
    await updServer?.stop();
    await rm(siteDir, { recursive: true, force: true });
  });

  it('registers the worker, then asks "A new version is available. Load it now?" and reloads', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      localStorage.setItem('cookies_banner_essentials', 'true');
      localStorage.setItem('locale', 'en_GB');
    });
    const page = await context.newPage();
    await page.goto(`${updServer.baseUrl}/about`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 40_000,
    });
    const sw = path.join(siteDir, 'sw.js');
    await writeFile(sw, `${await readFile(sw, 'utf8')}\n// next version\n`);
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg!.update();
    });
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.textContent()).toContain('A new version is available. Load it now?');
    await screenshot(page, 'update-prompt');
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Load' }).click();
    await reloaded;
    await context.close();
  }, 90_000);
});
