/**
 * XSS payloads and the trap that catches one that runs (docs/security.md#xss). Each payload that
 * would run calls `__xss(<id>)` (a function exposed by the test) and sets `window.__xssHit`; a few
 * call `alert()`, caught as a `dialog` event. None may fire on any screen or widget.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';

/** The code a payload runs: the exposed trap and a global flag (sloppy-mode assignment). */
const hit = (id: number) => `__xss(${id}),__xssHit=1`;

/**
 * Every payload fits the shortest free-text field (a person's name, 80 characters), so each one
 * goes into every field unchanged.
 */
export const PAYLOADS: readonly string[] = [
  `<script>${hit(1)}</script>`,
  `<img src=x onerror="${hit(2)}">`,
  `<svg onload="${hit(3)}"></svg>`,
  `<svg><script>${hit(4)}</script></svg>`,
  `"><img src=x onerror=${hit(5)}>`,
  `'><script>${hit(6)}</script>`,
  `<iframe srcdoc="<script>parent.__xss(7)</script>"></iframe>`,
  `javascript:${hit(8)}`,
  `JaVaScRiPt:${hit(9)}`,
  `data:text/html,<script>${hit(10)}</script>`,
  `vbscript:msgbox(11)`,
  `{{constructor.constructor('${hit(12)}')()}}`,
  `\${${hit(13)}}`,
  `[click](javascript:${hit(14)})`,
  `&lt;img src=x onerror=${hit(15)}&gt;`,
  `<ScRiPt>${hit(16)}</sCrIpT>`,
  `<IMG SRC=JaVaScRiPt:${hit(17)}>`,
  `<details open ontoggle=${hit(18)}>`,
  `<a href="javascript:${hit(19)}">link</a>`,
  `<img src=x onerror=alert(20)>`,
  `<body onload=${hit(21)}>`,
  `<input autofocus onfocus=${hit(22)}>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=__xss(23)>`,
  `<style>@import'//x'</style><b onmouseover=${hit(24)}>b</b>`,
];

/** Links a stored row may hold from before the schema checked them: never an href. */
export const BAD_WEBSITES: readonly string[] = [
  `javascript:${hit(101)}`,
  ` JaVaScRiPt:${hit(102)}`,
  `java\nscript:${hit(103)}`,
  `data:text/html,<script>${hit(104)}</script>`,
  `vbscript:msgbox(105)`,
  `//evil.example/106`,
];
export const BAD_PHONES: readonly string[] = [
  `javascript:${hit(111)}`,
  `tel:+48 600 100 200" onclick="${hit(112)}`,
  `data:,${hit(113)}`,
];

export interface Trap {
  /** Every payload id that ran and every dialog that opened. */
  hits: string[];
  /** Reads `window.__xssHit` in every frame of the page. */
  flagged(page: Page): Promise<string[]>;
}

/** Sets the trap on a context: `__xss` exposed to every page and frame, dialogs recorded. */
export async function setTrap(context: BrowserContext): Promise<Trap> {
  const hits: string[] = [];
  await context.exposeFunction('__xss', (id: unknown) => {
    hits.push(`__xss(${String(id)})`);
  });
  context.on('page', (page) => watchDialogs(page, hits));
  for (const page of context.pages()) watchDialogs(page, hits);
  return {
    hits,
    async flagged(page: Page) {
      const flagged: string[] = [];
      for (const frame of page.frames()) {
        if (await frameFlag(frame)) flagged.push(`__xssHit in ${frame.url()}`);
      }
      return flagged;
    },
  };
}

function watchDialogs(page: Page, hits: string[]) {
  page.on('dialog', (dialog) => {
    hits.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
}

async function frameFlag(frame: Frame): Promise<boolean> {
  try {
    return await frame.evaluate(
      () => (window as unknown as { __xssHit?: unknown }).__xssHit !== undefined,
    );
  } catch {
    return false; // a frame that went away
  }
}

export interface Rendered {
  /** The text of the page and of every open shadow root, with the values of form fields. */
  text: string;
  /** Every link's resolved href, through shadow roots. */
  hrefs: string[];
  /** Elements that carry an inline event handler attribute (`on…`). */
  handlers: string[];
  /** iframe, object and embed elements, and scripts whose text mentions the trap. */
  active: string[];
}

/** Walks the document and its open shadow roots. */
export function rendered(page: Page): Promise<Rendered> {
  return page.evaluate(() => {
    const out = {
      text: [] as string[],
      hrefs: [] as string[],
      handlers: [] as string[],
      active: [] as string[],
    };
    const walk = (root: Document | ShadowRoot) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        const tag = el.localName;
        if (tag === 'a' || tag === 'area') {
          const href = (el as HTMLAnchorElement).href;
          if (el.hasAttribute('href')) out.hrefs.push(href);
        }
        for (const attr of Array.from(el.attributes)) {
          if (/^on/i.test(attr.name)) out.handlers.push(`${tag}[${attr.name}]`);
          if (
            /^(src|srcdoc|action|formaction|xlink:href)$/i.test(attr.name) &&
            /__xss|javascript:/i.test(attr.value)
          ) {
            out.handlers.push(`${tag}[${attr.name}=${attr.value}]`);
          }
        }
        if (tag === 'iframe' || tag === 'object' || tag === 'embed') out.active.push(tag);
        if (
          tag === 'script' &&
          /__xss/.test(el.textContent ?? '') &&
          (el as HTMLScriptElement).type !== 'application/ld+json'
        ) {
          out.active.push(`script: ${(el.textContent ?? '').slice(0, 80)}`);
        }
        if (tag === 'input' || tag === 'textarea') out.text.push((el as HTMLInputElement).value);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
      const body = root instanceof Document ? root.body : root;
      // textContent, not innerText: what is in the DOM as text, hidden parts (a closed tab) too.
      if (body) out.text.push(body.textContent ?? '');
    };
    walk(document);
    return {
      text: out.text.join('\n'),
      hrefs: out.hrefs,
      handlers: out.handlers,
      active: out.active,
    };
  });
}

/** Schemes a rendered link may have. */
export const SAFE_SCHEMES = new Set(['http:', 'https:', 'tel:', 'mailto:']);

/** Hrefs with another scheme (javascript:, data:, vbscript:…). */
export const unsafeHrefs = (hrefs: string[]) =>
  hrefs.filter((h) => {
    try {
      return !SAFE_SCHEMES.has(new URL(h).protocol);
    } catch {
      return true;
    }
  });
