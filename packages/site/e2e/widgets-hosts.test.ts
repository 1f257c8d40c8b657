import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, screenshot } from './fixtures/index.js';
import { HOSTILE_CSS, LONG, startWidgetEnv, type WidgetEnv } from './helpers/widgets.js';

/**
 * Every widget on the host pages organisations really have: a root font size of 62.5 % or
 * 200 %, `* { font-size: 31px !important }`, `<html dir="rtl" lang="he">`, a dark page (with
 * `theme="auto"` on a dark system and with `theme="dark"`) and the hostile stylesheet. Each page
 * holds every widget once, followed by the page's own text, and is built once; the assertions
 * share what it measured.
 */

const WIDGETS = ['search', 'vacancies', 'report', 'service', 'dashboard', 'map'] as const;
type Widget = (typeof WIDGETS)[number];

interface Variant {
  css?: string;
  lang?: string;
  dir?: 'rtl';
  theme?: 'dark' | 'auto';
  colorScheme?: 'dark';
}

const DARK_PAGE = 'html, body { background: #1e1e1e; color: #e0e0e0; }';
const VARIANTS: Record<string, Variant> = {
  clean: {},
  'root-62': { css: 'html { font-size: 62.5%; }' },
  'root-200': { css: 'html { font-size: 200%; }' },
  'font-31': { css: '* { font-size: 31px !important; }' },
  rtl: { lang: 'he', dir: 'rtl' },
  'dark-auto': { css: DARK_PAGE, theme: 'auto', colorScheme: 'dark' },
  dark: { css: DARK_PAGE, theme: 'dark' },
  hostile: { css: HOSTILE_CSS },
};
const DARK_VARIANTS = ['dark-auto', 'dark'];

/** The page's own layout: a fixed column, so that every variant gives the widgets one width. */
const LAYOUT = 'section.w { display: block; width: min(960px, 100%); margin: 0 0 24px; }';

/** Tall, so that every widget is in the viewport and each of its shifts counts. */
const VIEWPORT = { width: 1280, height: 6000 };

interface Box {
  width: number;
  height: number;
}

interface Measured {
  state: string | null;
  /** The element's height once ready. */
  height: number;
  /** The first heading, label and button inside, or null when the widget has none. */
  boxes: Record<'heading' | 'label' | 'button', Box | null>;
  /** The computed `direction`s of the widget's root and every element in it, each once. */
  directions: string[];
  /** The root's computed background colour. */
  background: string;
  /** Texts under 4.5:1 against what is behind them: `tag "text" ratio`. */
  lowContrast: string[];
}

interface PageResult {
  page: Page;
  context: BrowserContext;
  errors: string[];
  widgets: Record<Widget, Measured>;
  /** The page's layout shifts: their sum (its CLS) and what moved in each. */
  shifts: { score: number; moved: string[] };
  /** Each widget's heights from the first paint on; one entry when it never changed. */
  heights: Record<string, number[]>;
}

let env: WidgetEnv;
let serviceId: string;
const results = new Map<string, PageResult>();
let errorPage: { page: Page; context: BrowserContext };

const widgetsHtml = (theme: string | undefined, apiBase = '{{API}}') => {
  const t = theme ? ` theme="${theme}"` : '';
  const a = `api-base="${apiBase}"${t}`;
  const tags: Record<Widget, string> = {
    search: `<poruch-search ${a}></poruch-search>`,
    vacancies: `<poruch-vacancies ${a}></poruch-vacancies>`,
    report: `<poruch-report ${a} service-id="${serviceId}"></poruch-report>`,
    service: `<poruch-service ${a} service-id="${serviceId}"></poruch-service>`,
    dashboard: `<poruch-dashboard ${a}></poruch-dashboard>`,
    map: `<poruch-map ${a} tile-url="none" country="PL"></poruch-map>`,
  };
  return WIDGETS.map(
    (w) =>
      `<section class="w" data-w="${w}"><h2>${w}</h2>${tags[w]}<p class="after">The host page's text after ${w}.</p></section>`,
  ).join('\n');
};

/**
 * From before the page's first paint: every layout shift, with the nodes that moved, and each
 * widget's heights (a new entry at each change of its element's height).
 */
function record() {
  const w = window as unknown as {
    __shifts: PerformanceObserver;
    __entries: PerformanceEntry[];
    __heights: Record<string, number[]>;
  };
  w.__entries = [];
  w.__shifts = new PerformanceObserver((list) => w.__entries.push(...list.getEntries()));
  w.__shifts.observe({ type: 'layout-shift', buffered: true });
  w.__heights = {};
  const sizes = new ResizeObserver((entries) => {
    for (const e of entries) {
      const list = (w.__heights[e.target.localName.slice('poruch-'.length)] ??= []);
      const height = Math.round(e.borderBoxSize[0]!.blockSize * 10) / 10;
      if (list.at(-1) !== height) list.push(height);
    }
  });
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes)
        if (n instanceof Element && n.localName.startsWith('poruch-')) sizes.observe(n);
  }).observe(document, { childList: true, subtree: true });
}

async function open(name: string, variant: Variant): Promise<PageResult> {
  const context = await env.browser.newContext({
    viewport: VIEWPORT,
    ...(variant.colorScheme ? { colorScheme: variant.colorScheme } : {}),
  });
  await context.addInitScript(record);
  const page = await context.newPage();
  const errors = collectErrors(page);
  const dir = variant.dir
    ? `<script>document.documentElement.dir = '${variant.dir}';</script>`
    : '';
  const url = await env.hostPage(`hosts-${name}`, dir + widgetsHtml(variant.theme), {
    css: LAYOUT + (variant.css ?? ''),
    // As docs/embedding.md recommends for no shift from the first paint: the reserve is the
    // loader's, so the page paints once the loader has run.
    blockRender: true,
    ...(variant.lang ? { lang: variant.lang } : {}),
  });
  await page.goto(url);
  await page
    .waitForFunction(
      (tags) =>
        tags.every((t) => {
          const state = document.querySelector(`poruch-${t}`)?.getAttribute('state');
          return state === 'ready' || state === 'error';
        }),
      [...WIDGETS],
      { timeout: LONG },
    )
    .catch(async (e: unknown) => {
      const states = await page.evaluate(
        (tags) =>
          tags.map((t) => `${t}: ${document.querySelector(`poruch-${t}`)?.getAttribute('state')}`),
        [...WIDGETS],
      );
      throw new Error(`${name}: ${states.join(', ')}; ${errors.join('; ')}`, { cause: e });
    });
  // Two frames, so that the last render's shifts are reported.
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
  const widgets = await page.evaluate(measure, [...WIDGETS]);
  const shifts = await page.evaluate(pageShifts);
  const heights = await page.evaluate(
    () => (window as unknown as { __heights: Record<string, number[]> }).__heights,
  );
  return { page, context, errors, widgets: widgets as Record<Widget, Measured>, shifts, heights };
}

/** In the page: what each widget looks like (see {@link Measured}). */
function measure(tags: string[]): Record<string, Measured> {
  const deepAll = (from: Element | ShadowRoot, out: Element[] = []): Element[] => {
    for (const el of from.querySelectorAll('*')) {
      out.push(el);
      if (el.shadowRoot) deepAll(el.shadowRoot, out);
    }
    return out;
  };
  const parse = (c: string): [number, number, number, number] => {
    const n = (c.match(/[\d.]+/g) ?? []).map(Number);
    if (c.startsWith('color(srgb')) return [n[0]! * 255, n[1]! * 255, n[2]! * 255, n[3] ?? 1];
    return [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 1];
  };
  const parentOf = (el: Element): Element | null =>
    el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
  /** The opaque colour behind `el`: its background over its parents', down to the page's. */
  const behind = (el: Element | null): [number, number, number] => {
    if (!el) {
      const page = parse(getComputedStyle(document.body).backgroundColor);
      const html = parse(getComputedStyle(document.documentElement).backgroundColor);
      return page[3] > 0
        ? [page[0], page[1], page[2]]
        : html[3] > 0
          ? [html[0], html[1], html[2]]
          : [255, 255, 255];
    }
    const [r, g, b, a] = parse(getComputedStyle(el).backgroundColor);
    const under = behind(parentOf(el));
    return [r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a)];
  };
  const luminance = ([r, g, b]: number[]) => {
    const c = [r!, g!, b!].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
  };
  const ratio = (a: number[], b: number[]) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  };
  const box = (el: Element | undefined) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 };
  };
  const out: Record<string, Measured> = {};
  for (const tag of tags) {
    const host = document.querySelector(`poruch-${tag}`)!;
    const all = deepAll(host.shadowRoot!);
    const root = all.find((e) => e.classList.contains('poruch-root'))!;
    const visible = (e: Element) => (e as HTMLElement).offsetWidth > 0;
    const first = (sel: string) => all.find((e) => e.matches(sel) && visible(e));
    const lowContrast: string[] = [];
    const directions = new Set<string>();
    for (const el of all) {
      if (!root.contains(el) && el !== root) continue;
      const cs = getComputedStyle(el);
      directions.add(cs.direction);
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === 3)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!text || !visible(el) || cs.visibility === 'hidden') continue;
      const fg = parse(cs.color);
      const bg = behind(el);
      const r = ratio(fg, bg);
      if (r < 4.5) lowContrast.push(`${el.localName} "${text.slice(0, 30)}" ${r.toFixed(2)}`);
    }
    out[tag] = {
      state: host.getAttribute('state'),
      height: Math.round(host.getBoundingClientRect().height * 10) / 10,
      boxes: {
        heading: box(first('h1, h2, h3')),
        label: box(first('label, legend, .field__label, .status')),
        button: box(first('button, a.button')),
      },
      directions: [...directions],
      background: root ? getComputedStyle(root).backgroundColor : 'none',
      lowContrast,
    };
  }
  return out;
}

/** In the page: the layout shifts so far (none within 500 ms of an input), with what moved. */
function pageShifts(): { score: number; moved: string[] } {
  interface Source {
    node: Node | null;
    previousRect: DOMRectReadOnly;
    currentRect: DOMRectReadOnly;
  }
  const w = window as unknown as { __shifts: PerformanceObserver; __entries: PerformanceEntry[] };
  const entries = [...w.__entries, ...w.__shifts.takeRecords()] as (PerformanceEntry & {
    value: number;
    hadRecentInput: boolean;
    sources: Source[];
  })[];
  const name = (n: Node | null) => {
    const el = n instanceof Element ? n : (n?.parentElement ?? null);
    const section = el?.closest<HTMLElement>('section[data-w]');
    return `${el ? `${el.localName}.${el.className}` : '?'}${section ? ` in ${section.dataset.w}` : ''}`;
  };
  const out = { score: 0, moved: [] as string[] };
  for (const e of entries) {
    if (e.hadRecentInput) continue;
    out.score += e.value;
    for (const s of e.sources)
      out.moved.push(
        `${Math.round(e.startTime)}ms ${name(s.node)}: y ${s.previousRect.y} → ${s.currentRect.y}, height ${s.previousRect.height} → ${s.currentRect.height}`,
      );
  }
  return out;
}

beforeAll(async () => {
  env = await startWidgetEnv();
  const res = await fetch(`${env.server.baseUrl}/api/v1/vacancies?pageSize=1`);
  serviceId = ((await res.json()) as { items: { service: { id: string } }[] }).items[0]!.service.id;
  for (const [name, variant] of Object.entries(VARIANTS))
    results.set(name, await open(name, variant));

  // Failures: nothing answers on port 9; the report without its service id.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const dead = 'http://127.0.0.1:9';
  await page.goto(
    await env.hostPage(
      'hosts-errors',
      `<poruch-search api-base="${dead}"></poruch-search>
       <poruch-vacancies api-base="${dead}"></poruch-vacancies>
       <poruch-service api-base="${dead}" service-id="x"></poruch-service>
       <poruch-map api-base="${dead}" tile-url="none"></poruch-map>
       <poruch-report api-base="{{API}}"></poruch-report>`,
      { css: LAYOUT },
    ),
  );
  errorPage = { page, context };
}, 8 * LONG);

afterAll(async () => {
  // To look at: the dark and right-to-left pages at 375 and 1280 px.
  for (const name of ['dark', 'dark-auto', 'rtl']) {
    const r = results.get(name);
    if (r) await screenshot(r.page, `widgets-hosts-${name}`);
  }
  for (const r of results.values()) await r.context.close();
  await errorPage?.context.close();
  await env?.stop();
});

const variantNames = Object.keys(VARIANTS).filter((n) => n !== 'clean');

describe('every widget on any host page', () => {
  it('is ready on every page, without errors', () => {
    for (const [name, r] of results) {
      expect({ name, states: WIDGETS.map((w) => r.widgets[w].state) }).toEqual({
        name,
        states: WIDGETS.map(() => 'ready'),
      });
      expect(r.errors, name).toEqual([]);
    }
  });

  it.each(WIDGETS)(
    '<poruch-%s> measures within 1 px of a clean page on every host page',
    (widget) => {
      const clean = results.get('clean')!.widgets[widget].boxes;
      const off: string[] = [];
      for (const name of variantNames) {
        const boxes = results.get(name)!.widgets[widget].boxes;
        for (const part of ['heading', 'label', 'button'] as const) {
          const a = clean[part];
          const b = boxes[part];
          const same =
            a === null || b === null
              ? a === b
              : Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1;
          if (!same)
            off.push(`${name} ${part}: ${JSON.stringify(b)} vs clean ${JSON.stringify(a)}`);
        }
      }
      expect(clean.label ?? clean.button, 'something to measure').not.toBeNull();
      expect(off).toEqual([]);
    },
  );

  it('lays every widget out left to right on a right-to-left page', () => {
    for (const [name, r] of results) {
      for (const w of WIDGETS) expect(r.widgets[w].directions, `${name} ${w}`).toEqual(['ltr']);
    }
  });

  it('paints an opaque background by default, and readable text on dark pages', () => {
    for (const w of WIDGETS) {
      const bg = results.get('clean')!.widgets[w].background;
      expect(bg, w).toMatch(/^rgb\(/);
    }
    for (const name of DARK_VARIANTS) {
      const r = results.get(name)!;
      for (const w of WIDGETS) {
        expect(r.widgets[w].background, `${name} ${w}`).not.toBe('rgb(255, 255, 255)');
        expect(r.widgets[w].lowContrast, `${name} ${w}`).toEqual([]);
      }
    }
  });

  it.each(WIDGETS)(
    '<poruch-%s> keeps one height from the first paint to ready on every host page',
    (widget) => {
      const heights = Object.fromEntries(
        [...results].map(([name, r]) => [name, r.heights[widget] ?? []]),
      );
      const once = Object.fromEntries(
        [...results].map(([name, r]) => [name, [r.widgets[widget].height]]),
      );
      expect(heights).toEqual(once);
    },
  );

  it('does not move the page while the widgets load (CLS 0 in Chromium)', () => {
    const shifts = Object.fromEntries([...results].map(([name, r]) => [name, r.shifts]));
    expect(shifts).toEqual(
      Object.fromEntries([...results.keys()].map((n) => [n, { score: 0, moved: [] }])),
    );
  });

  it('gives each vacancy card its id, and opens a cut card to its whole text', async () => {
    const { page } = results.get('clean')!;
    const cards = page.locator('poruch-vacancies').locator('[part~="vacancy"]');
    const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-vacancy-id')));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id ?? ''))).toBe(true);

    const cut = cards.filter({ has: page.locator('button[aria-expanded="false"]') }).first();
    const card = cards.and(
      page.locator(`[data-vacancy-id="${await cut.getAttribute('data-vacancy-id')}"]`),
    );
    const more = card.locator('button');
    const closed = (await card.boundingBox())!.height;
    await more.click();
    await expect.poll(async () => (await card.boundingBox())!.height).toBeGreaterThan(closed);
    expect(await more.getAttribute('aria-expanded')).toBe('true');
  });

  it('shows the error title, message and retry as separate blocks in every widget', async () => {
    const { page } = errorPage;
    const tags = ['search', 'vacancies', 'service', 'map', 'report'];
    await page.waitForFunction(
      (tags) =>
        tags.every((t) => document.querySelector(`poruch-${t}`)?.getAttribute('state') === 'error'),
      tags,
      { timeout: LONG },
    );
    for (const tag of tags) {
      const error = page.locator(`poruch-${tag}`).locator('[part~="error"]');
      const rects = await Promise.all(
        ['.poruch-error__title', '.poruch-error__message', 'button'].map(async (sel) => {
          const el = error.locator(sel);
          return (await el.count()) ? el.boundingBox() : null;
        }),
      );
      const [title, message, retry] = rects;
      expect(title, `${tag} title`).not.toBeNull();
      expect(message, `${tag} message`).not.toBeNull();
      expect(message!.y, `${tag}: the message is below the title`).toBeGreaterThanOrEqual(
        title!.y + title!.height,
      );
      if (tag !== 'report') {
        expect(retry, `${tag} retry`).not.toBeNull();
        expect(retry!.y, `${tag}: retry is below the message`).toBeGreaterThanOrEqual(
          message!.y + message!.height,
        );
      }
    }
  });
});
