import { warnOnce } from './warnOnce.js';

/**
 * Registers a custom element unless the tag is already defined.
 *
 * A page may load the widget script twice (two snippets, or the ESM build next to the script-tag
 * bundle). A second `customElements.define` would throw and stop every later widget from loading,
 * so it is skipped with a `[poruch]` warning instead.
 *
 * Outside a browser (server-side rendering, Node tests without a DOM) it does nothing.
 *
 * @param tag The element name. Must start with `poruch-`.
 * @param ctor The element class.
 * @returns `true` when this call defined the element, `false` when it was skipped.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor): boolean {
  if (typeof customElements === 'undefined') return false;
  if (!tag.startsWith('poruch-')) {
    throw new TypeError(`[poruch] element names start with "poruch-", got "${tag}"`);
  }
  const existing = customElements.get(tag);
  if (existing) {
    if (existing !== ctor) {
      warnOnce(`<${tag}> is already defined by another script; keeping the first definition.`);
    }
    return false;
  }
  customElements.define(tag, ctor);
  return true;
}
