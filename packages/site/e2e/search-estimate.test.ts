import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, REPO_ROOT, screenshot } from './fixtures/index.js';
import { LONG, startWidgetEnv, waitForState, type WidgetEnv } from './helpers/widgets.js';

/**
 * More matches than the server counts: it counts a text query's matches up to 1000 and then
 * answers `totalIsEstimate`. The server's synthetic scale data (`seed:synthetic`) describes
 * every service as "… у місті <city>", so `q=місті` matches each approved one (about 90 % of
 * the 1300).
 */
const SERVICES = 1300;
const Q = 'місті';

let env: WidgetEnv;

beforeAll(async () => {
  env = await startWidgetEnv({
    prepare: async (dataDir) => {
      // NODE_ENV: the CLI's own (the suite runs under test, which the server reads otherwise).
      await promisify(execFile)(
        'pnpm',
        [
          '--filter',
          '@poruch/server',
          'seed:synthetic',
          '--services',
          `${SERVICES}`,
          '--vacancies',
          '0',
        ],
        { cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir } },
      );
    },
  });
}, 180_000);

afterAll(async () => {
  await env?.stop();
});

const LANGS = [
  { lang: 'ua', home: 'Знайдено: 1\u00a0000+', widget: 'Результатів: 1\u00a0000+' },
  { lang: 'en_GB', home: 'Results: 1,000+', widget: 'Results: 1,000+' },
] as const;

/** The answer of the next `GET services` with `q`, after `action`. */
async function searched(page: Page, action: () => Promise<unknown>) {
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/v1/services?') && new URL(r.url()).searchParams.get('q') === Q,
    { timeout: LONG },
  );
  await action();
  const res = await answer;
  expect(res.status()).toBe(200);
  return (await res.json()) as { total: number; totalIsEstimate?: boolean };
}

describe('a search with more matches than the server counts shows "1000+"', () => {
  it.each(LANGS)('on the home page in $lang', async ({ lang, home }) => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((locale) => {
      localStorage.setItem('poruch_e2e', '1');
      localStorage.setItem('locale', locale);
      localStorage.setItem('cookies_banner_essentials', 'true');
      localStorage.setItem('cookies_banner_marketing', 'false');
    }, lang);
    const page = await context.newPage();
    const errors = collectErrors(page);
    const answer = await searched(page, () =>
      page.goto(`${env.server.baseUrl}/?view=list&q=${encodeURIComponent(Q)}`),
    );
    expect(answer).toMatchObject({ total: 1000, totalIsEstimate: true });
    await expect.poll(() => page.locator('.results__count').textContent()).toBe(home);
    expect(await page.getByTestId('results').locator('li').count()).toBe(20);
    // 1000 counted, 20 a page: the pager offers 50 pages.
    await expect.poll(() => page.locator('.pager span').textContent()).toMatch(/50/);
    await screenshot(page, `home-estimate-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(LANGS)('in <poruch-search> in $lang', async ({ lang, widget }) => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const host = await env.hostPage(
      `search-estimate-${lang}`,
      `<poruch-search api-base="{{API}}" lang="${lang}" q="${Q}" page-size="5"></poruch-search>`,
    );
    const answer = await searched(page, () => page.goto(host));
    expect(answer).toMatchObject({ total: 1000, totalIsEstimate: true });
    await waitForState(page, 'poruch-search');
    const count = page.locator('poruch-search [part~="count"]');
    await expect.poll(() => count.textContent()).toBe(widget);
    await screenshot(page, `widget-search-estimate-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
