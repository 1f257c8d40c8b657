/**
 * The script-tag loader: `<script type="module" src="…/widgets/v0/poruch.js">`.
 *
 * It knows every element (./elements.ts) but holds none of their code. It reserves each
 * element's space while it is undefined, then watches the page: the first time a tag appears
 * (now or later), it imports that element's chunk, which defines it, and, when that element will
 * show English, the element's English chunk at the same time (not after the element's code).
 * Nothing else is loaded, no cookie is read or set, and no service worker is registered.
 */
import { ELEMENTS } from './elements.js';
import { showsEnglish } from './english.js';
import { adoptStyles } from '../shared/styleSheets.js';

const started = new Set<string>();
const english = new Set<string>();
const tags = Object.keys(ELEMENTS);

/** Starts the English of `el`'s element once, if it will show English; a failure is the shell's. */
function hint(el: Element) {
  const tag = el.localName;
  if (english.has(tag) || !ELEMENTS[tag] || !showsEnglish(el)) return;
  english.add(tag);
  ELEMENTS[tag][2]().catch(() => english.delete(tag));
}

/** Imports the chunk of `tag` once; resolves when the element is defined. */
export function load(tag: string): Promise<unknown> {
  const entry = ELEMENTS[tag];
  if (!entry) return Promise.reject(new TypeError(`[poruch] unknown element <${tag}>`));
  if (!started.has(tag)) {
    started.add(tag);
    entry[0]().catch((e: unknown) => {
      started.delete(tag);
      console.error(`[poruch] could not load <${tag}>`, e);
    });
  }
  return customElements.whenDefined(tag);
}

function scan(root: ParentNode) {
  for (const tag of tags) {
    if (started.has(tag)) continue;
    const found = root.querySelectorAll(tag);
    if (!found.length) continue;
    found.forEach(hint);
    void load(tag);
  }
}

if (typeof document !== 'undefined' && typeof customElements !== 'undefined') {
  adoptStyles(
    document,
    tags
      .map((tag) => `${tag}:not(:defined){display:block;min-height:${ELEMENTS[tag]![1]}}`)
      .join(''),
  );

  const observer = new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.nodeType !== 1) continue;
        const el = node as Element;
        const tag = el.localName;
        if (ELEMENTS[tag] && !started.has(tag)) {
          hint(el);
          void load(tag);
        }
        if (el.firstElementChild) scan(el);
      }
    }
    if (started.size === tags.length) observer.disconnect();
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  scan(document);
}
