import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@testing-library/dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '@poruch/core/locales/en_GB.json';
import ua from '@poruch/core/locales/ua.json';
import { ELEMENTS } from '../../loader/elements.js';
import { showsEnglish } from '../../loader/english.js';
import { loadWidgetI18n, loadedWidgetI18n } from '../createWidgetI18n.js';
import { defineWidget } from '../defineWidget.js';
import { ENGLISH } from '../english.js';
import { resolveLang } from '../lang.js';
import type { Messages, Namespaces } from '../messages.js';
import { categoryMessages } from '../messages/categoryMessages.js';
import { countryNameMessages } from '../messages/countryNameMessages.js';
import { experienceMessages } from '../messages/experienceMessages.js';
import { fieldMessages } from '../messages/fieldMessages.js';
import { flagMessages } from '../messages/flagMessages.js';
import { homeMessages } from '../messages/homeMessages.js';
import { mapMessages } from '../messages/mapMessages.js';
import { serviceProfileMessages } from '../messages/serviceProfileMessages.js';
import { vacanciesMessages } from '../messages/vacanciesMessages.js';
import { useWidget } from '../WidgetContext.js';
import { WidgetShell, type WidgetBaseProps } from '../WidgetShell.js';
import '../../search/element.js';
import '../../vacancies/element.js';

// Ukrainian, the default, is inline; English is loaded only when a widget shows it. The first
// render is already in the widget's language, and a language change renders the other one once
// its chunks are in (never raw keys, never nothing).
// The module-level cache of loaded chunks is shared by the whole file: the tests run in order.

let server: Server;
let apiBase = '';
beforeAll(async () => {
  // A real API that is down: the widgets show their translated error.
  server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'content-type' });
      res.end();
      return;
    }
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 503, errors: { message: 'service_unavailable' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const RAW_KEY =
  /Missing translation|\b(common|error|widget|home|category|country_name|map)\.[a-z_]+\b/;

/** The widget's content root inside the element's two shadow roots, once rendered. */
const contentRoot = (el: Element) =>
  el.shadowRoot
    ?.querySelector('.poruch-shell')
    ?.shadowRoot?.querySelector<HTMLElement>('.poruch-root') ?? null;

/** Everything a reader sees or hears of the content: text, placeholders and labels. */
const visible = (root: HTMLElement) =>
  [
    root.textContent ?? '',
    ...Array.from(root.querySelectorAll('[placeholder], [aria-label]')).flatMap((n) => [
      n.getAttribute('placeholder') ?? '',
      n.getAttribute('aria-label') ?? '',
    ]),
  ].join(' | ');

/**
 * Records every state the content goes through, from the element's connection on: the content
 * root's `lang` and what it shows, after each batch of DOM changes (every commit).
 */
function watch(el: HTMLElement): { lang: string; text: string }[] {
  const seen: { lang: string; text: string }[] = [];
  const record = () => {
    const root = contentRoot(el);
    if (root) seen.push({ lang: root.lang, text: visible(root) });
  };
  let inner: ShadowRoot | null = null;
  const follow = () => {
    const shell = el.shadowRoot?.querySelector('.poruch-shell')?.shadowRoot ?? null;
    if (shell && shell !== inner) {
      inner = shell;
      observer.observe(shell, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    }
  };
  const observer = new MutationObserver(() => {
    follow();
    record();
  });
  observer.observe(el.shadowRoot!, { subtree: true, childList: true });
  follow();
  return seen;
}

describe('<poruch-search> languages', () => {
  it('renders Ukrainian, the inline default, at once and loads no English', async () => {
    expect(loadedWidgetI18n('ua')).toBeDefined();
    const el = document.createElement('poruch-search');
    el.setAttribute('api-base', apiBase);
    el.setAttribute('lang', 'uk');
    const seen = watch(el);
    document.body.append(el);
    await waitFor(
      () => expect(contentRoot(el)?.textContent).toContain(ua.error.service_unavailable),
      { timeout: 5000 },
    );
    expect(el.getAttribute('state')).toBe('error');
    expect(seen[0]!.lang).toBe('uk');
    expect(seen[0]!.text).toContain(ua.widget.search_label);
    for (const state of seen) expect(state.text).not.toMatch(RAW_KEY);
    expect(loadedWidgetI18n('en_GB')).toBeUndefined();
    el.remove();
  });

  it('loads English when lang changes and renders it, showing Ukrainian meanwhile', async () => {
    const el = document.createElement('poruch-search');
    el.setAttribute('api-base', apiBase);
    el.setAttribute('lang', 'uk');
    document.body.append(el);
    await waitFor(() => expect(contentRoot(el)?.textContent).toContain(ua.widget.search_label));
    const seen = watch(el);
    el.setAttribute('lang', 'en');
    await waitFor(() => expect(contentRoot(el)?.textContent).toContain(en.widget.search_label), {
      timeout: 5000,
    });
    expect(contentRoot(el)!.lang).toBe('en-GB');
    expect(loadedWidgetI18n('en_GB')).toBeDefined();
    expect(seen.length).toBeGreaterThan(0);
    for (const state of seen) {
      expect(state.text).not.toMatch(RAW_KEY);
      const english = state.text.includes(en.widget.search_label);
      const ukrainian = state.text.includes(ua.widget.search_label);
      // Each state is wholly one language, in the lang its root says.
      expect(english !== ukrainian).toBe(true);
      expect(state.lang).toBe(english ? 'en-GB' : 'uk');
    }
    el.remove();
  });
});

describe('a widget’s English chunks', () => {
  const imports: string[] = [];
  const counted: Messages = {
    ua: mapMessages.ua,
    en_GB: () => {
      imports.push('en_GB');
      return (mapMessages.en_GB as () => Promise<Namespaces>)();
    },
  };
  const MESSAGES = [counted];
  const renders: string[] = [];

  function Label() {
    const { t } = useWidget();
    const text = t('map.label');
    renders.push(text);
    return <p data-testid="label">{text}</p>;
  }
  function PoruchLabel(props: WidgetBaseProps) {
    return (
      <WidgetShell {...props} styles="" parts={['root']} messages={MESSAGES}>
        <Label />
      </WidgetShell>
    );
  }
  defineWidget<WidgetBaseProps>({ tag: 'poruch-lang-label', component: PoruchLabel });
  const label = (el: Element) => contentRoot(el)?.querySelector('[data-testid=label]');

  it('are imported once per page, and the first render waits for them', async () => {
    const first = document.createElement('poruch-lang-label');
    const second = document.createElement('poruch-lang-label');
    first.setAttribute('lang', 'en_GB');
    second.setAttribute('lang', 'en_GB');
    document.body.append(first, second);
    await waitFor(() => expect(label(second)?.textContent).toBe(en.map.label));
    expect(label(first)?.textContent).toBe(en.map.label);
    expect(imports).toEqual(['en_GB']);
    expect(renders.length).toBeGreaterThan(0);
    expect(renders.filter((text) => text !== en.map.label)).toEqual([]);

    // Switching back and forth imports nothing more.
    second.setAttribute('lang', 'ua');
    await waitFor(() => expect(label(second)?.textContent).toBe(ua.map.label));
    expect(contentRoot(second)!.lang).toBe('uk');
    second.setAttribute('lang', 'en_GB');
    await waitFor(() => expect(label(second)?.textContent).toBe(en.map.label));
    expect(imports).toEqual(['en_GB']);
    expect(renders.filter((text) => text !== ua.map.label && text !== en.map.label)).toEqual([]);
    first.remove();
    second.remove();
  });
});

describe('an element’s English', () => {
  type Loader = () => Promise<Namespaces>;
  /** Replaces `owner[key]` (a loader) by one that records `name` on each call. */
  function record(calls: string[], owner: Record<string, unknown>, key: string, name: string) {
    const real = owner[key] as Loader;
    owner[key] = () => {
      calls.push(name);
      return real();
    };
    return () => {
      owner[key] = real;
    };
  }

  it('arrives in one chunk with every namespace the element shows, not one per namespace', async () => {
    const calls: string[] = [];
    const namespaces = {
      categoryMessages,
      countryNameMessages,
      experienceMessages,
      fieldMessages,
      flagMessages,
      homeMessages,
      vacanciesMessages,
    };
    const restore = [
      record(calls, ENGLISH as Record<string, unknown>, 'poruch-vacancies', 'poruch-vacancies'),
      ...Object.entries(namespaces).map(([name, bundle]) =>
        record(calls, bundle as Record<string, unknown>, 'en_GB', name),
      ),
    ];
    try {
      const el = document.createElement('poruch-vacancies');
      el.setAttribute('api-base', apiBase);
      el.setAttribute('lang', 'en');
      const seen = watch(el);
      document.body.append(el);
      await waitFor(
        () => expect(contentRoot(el)?.textContent).toContain(en.error.service_unavailable),
        { timeout: 5000 },
      );
      expect(seen[0]!.lang).toBe('en-GB');
      for (const state of seen) expect(state.text).not.toMatch(RAW_KEY);
      expect(calls).toEqual(['poruch-vacancies']);
      el.remove();
    } finally {
      for (const undo of restore) undo();
    }
  });

  it('brings a namespace it lacks from that namespace’s own chunk', async () => {
    const calls: string[] = [];
    const profile: Messages = { ...serviceProfileMessages };
    record(calls, profile as Record<string, unknown>, 'en_GB', 'service_profile');
    const chunk = ENGLISH['poruch-search']!;
    const i18n = await loadWidgetI18n('en_GB', [profile, categoryMessages], () => {
      calls.push('poruch-search');
      return chunk();
    });
    expect(calls).toEqual(['poruch-search', 'service_profile']);
    expect(i18n.t('service_profile.not_found')).toBe(en.service_profile.not_found);
    expect(i18n.t('category.auto')).toBe(en.category.auto);
  });

  it('is the same chunk the loader starts beside the element’s code', async () => {
    expect(Object.keys(ENGLISH).sort()).toEqual(Object.keys(ELEMENTS).sort());
    for (const [tag, [, , english]] of Object.entries(ELEMENTS))
      expect(await english()).toBe(await ENGLISH[tag]!());
  });

  it('is started by the loader for the elements whose language resolves to English', () => {
    const page = document.documentElement.lang;
    try {
      for (const docLang of ['', 'uk', 'en', 'en-GB', 'de'])
        for (const lang of [null, '', 'ua', 'uk-UA', 'en', 'en_US', 'EN-gb', 'fr', ' en ']) {
          document.documentElement.lang = docLang;
          const el = document.createElement('poruch-map');
          if (lang !== null) el.setAttribute('lang', lang);
          expect([docLang, lang, showsEnglish(el)]).toEqual([
            docLang,
            lang,
            resolveLang(lang, docLang) === 'en_GB',
          ]);
        }
    } finally {
      document.documentElement.lang = page;
    }
  });
});
