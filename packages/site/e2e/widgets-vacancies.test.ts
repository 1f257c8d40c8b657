import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, screenshot } from './fixtures/index.js';
import {
  LONG,
  startWidgetEnv,
  trackedContext,
  ua,
  waitForState,
  type WidgetEnv,
} from './helpers/widgets.js';

interface Hit {
  id: string;
  name: string;
  isOpen: boolean;
  experience: string;
  service: { id: string; name: string };
}

let env: WidgetEnv;
/** The service with the most vacancies in the demo catalogue: the partner of the example. */
let partner: { id: string; name: string; count: number };

beforeAll(async () => {
  env = await startWidgetEnv();
  const res = await fetch(`${env.server.baseUrl}/api/v1/vacancies?openOnly=false&pageSize=100`);
  const page = (await res.json()) as { items: Hit[] };
  const counts = new Map<string, { id: string; name: string; count: number }>();
  for (const v of page.items) {
    const c = counts.get(v.service.id) ?? { ...v.service, count: 0 };
    c.count += 1;
    counts.set(v.service.id, c);
  }
  partner = [...counts.values()].sort((a, b) => b.count - a.count)[0]!;
});

afterAll(async () => {
  await env?.stop();
});

const board = (page: Page) => page.locator('poruch-vacancies');
const names = (page: Page) => board(page).locator('.vacancy__name').allTextContents();

/** Waits for the next `GET vacancies` matching `test` and its board to be ready again. */
async function nextLoad(page: Page, test: (url: URL) => boolean, action: () => Promise<unknown>) {
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/v1/vacancies') && test(new URL(r.url())),
    { timeout: LONG },
  );
  await action();
  const res = await answer;
  expect(res.status()).toBe(200);
  await waitForState(page, 'poruch-vacancies');
  return (await res.json()) as { items: Hit[]; total: number };
}

describe('<poruch-vacancies> from the built bundles on a foreign origin', () => {
  it('filters the board by text, experience and open-only, without cookies', async () => {
    const { context, page, tracked } = await trackedContext(env);
    const errors = collectErrors(page);
    const first = page.waitForResponse((r) => r.url().includes('/api/v1/vacancies'), {
      timeout: LONG,
    });
    await page.goto(
      await env.hostPage(
        'vacancies-board',
        '<poruch-vacancies api-base="{{API}}" page-size="50"></poruch-vacancies>',
      ),
    );
    const initial = (await (await first).json()) as { items: Hit[]; total: number };
    await waitForState(page, 'poruch-vacancies');
    expect(initial.total).toBeGreaterThan(0);
    // Open only by default.
    expect(new URL((await first).url()).searchParams.get('openOnly')).toBe('true');
    expect(initial.items.every((v) => v.isOpen)).toBe(true);
    await expect.poll(() => names(page)).toEqual(initial.items.map((v) => v.name));

    // Experience: every vacancy shown asks for that level.
    const select = board(page).locator('select[name="experience"]');
    const level = initial.items[0]!.experience;
    const byLevel = await nextLoad(
      page,
      (u) => u.searchParams.get('experience') === level,
      () => select.selectOption(level),
    );
    expect(byLevel.items.length).toBeGreaterThan(0);
    expect(byLevel.items.every((v) => v.experience === level)).toBe(true);
    await expect.poll(() => names(page)).toEqual(byLevel.items.map((v) => v.name));
    await nextLoad(
      page,
      (u) => !u.searchParams.has('experience'),
      () => select.selectOption('all'),
    );

    // Open-only off: closed vacancies come too (the total can only grow).
    const all = await nextLoad(
      page,
      (u) => u.searchParams.get('openOnly') === 'false',
      () => board(page).getByLabel(ua('vacancies.open_only')).uncheck(),
    );
    expect(all.total).toBeGreaterThanOrEqual(initial.total);

    // Text: the query goes to the server (debounced) and narrows the board.
    const word = initial.items[0]!.name.split(/\s+/)[0]!;
    const byText = await nextLoad(
      page,
      (u) => u.searchParams.get('q') === word,
      () => board(page).locator('input[name="q"]').fill(word),
    );
    expect(byText.total).toBeGreaterThan(0);
    expect(byText.total).toBeLessThanOrEqual(all.total);
    await expect.poll(() => names(page)).toEqual(byText.items.map((v) => v.name));

    const nothing = await nextLoad(
      page,
      (u) => u.searchParams.get('q') === 'zzqxjv',
      () => board(page).locator('input[name="q"]').fill('zzqxjv'),
    );
    expect(nothing.total).toBe(0);
    await expect
      .poll(() => board(page).locator('[role="status"]').first().textContent())
      .toContain(ua('vacancies.empty'));

    const fetches = await tracked.fetches();
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.every((f) => f.credentials === 'omit')).toBe(true);
    await tracked.expectNoCookies();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with service-id shows one partner’s board (examples/partner-vacancies)', async () => {
    const { context, page } = await trackedContext(env);
    const answer = page.waitForResponse((r) => r.url().includes('/api/v1/vacancies'), {
      timeout: LONG,
    });
    await page.goto(env.example('partner-vacancies', { service: partner.id }));
    const res = await answer;
    expect(new URL(res.url()).searchParams.get('serviceId')).toBe(partner.id);
    const data = (await res.json()) as { items: Hit[]; total: number };
    expect(data.total).toBeGreaterThan(0);
    expect(data.items.every((v) => v.service.id === partner.id)).toBe(true);
    await waitForState(page, 'poruch-vacancies');
    await expect.poll(() => names(page)).toEqual(data.items.map((v) => v.name));
    // The partner embed hides the employer line: it is the partner's own page.
    expect(await board(page).locator('.vacancy__meta strong').count()).toBe(0);
    // The page's theme reaches the board through --poruch-* custom properties.
    const radius = await board(page)
      .locator('[part~="vacancy"]')
      .first()
      .evaluate((el) => getComputedStyle(el).borderTopLeftRadius);
    expect(radius).toBe('2px');
    await screenshot(page, 'widgets-partner-vacancies');
    await context.close();
  });
});
