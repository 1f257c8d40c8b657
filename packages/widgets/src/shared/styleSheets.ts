/**
 * The widgets' CSS as constructable stylesheets, adopted by shadow roots and the document.
 *
 * A host page whose Content Security Policy has no `'unsafe-inline'` in `style-src` blocks every
 * `<style>` element a script inserts, but not a sheet built with `new CSSStyleSheet()` and
 * adopted (`adoptedStyleSheets`). Each CSS text is parsed once into one sheet, shared by every
 * instance of every widget on the page. Where constructable sheets are missing (browsers before
 * 2023, test DOMs), a `<style>` element carries the same text.
 */

const sheets = new Map<string, readonly CSSStyleSheet[]>();

/** Whether this document can adopt constructed sheets, in shadow roots and on itself. */
function canAdopt(): boolean {
  return (
    typeof CSSStyleSheet !== 'undefined' &&
    typeof ShadowRoot !== 'undefined' &&
    typeof Document !== 'undefined' &&
    'replaceSync' in CSSStyleSheet.prototype &&
    'adoptedStyleSheets' in ShadowRoot.prototype &&
    'adoptedStyleSheets' in Document.prototype
  );
}

/**
 * The shared sheet of `css`, as a one-element array that is the same object for the same text
 * (react-shadow attaches again when its `styleSheets` prop changes), or null where
 * constructable sheets are missing: then the caller inserts a `<style>` element instead.
 */
export function sheetsOf(css: string): readonly CSSStyleSheet[] | null {
  if (!canAdopt()) return null;
  let list = sheets.get(css);
  if (!list) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    list = [sheet];
    sheets.set(css, list);
  }
  return list;
}

/**
 * Adds `css` to a shadow root, or to the document: its shared sheet adopted (once, after the
 * sheets already there), else a `<style>` element (in the document's head).
 */
export function adoptStyles(target: ShadowRoot | Document, css: string): void {
  const list = sheetsOf(css);
  if (list) {
    const missing = list.filter((sheet) => !target.adoptedStyleSheets.includes(sheet));
    if (missing.length) target.adoptedStyleSheets = [...target.adoptedStyleSheets, ...missing];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  ('head' in target ? target.head : target).append(style);
}
