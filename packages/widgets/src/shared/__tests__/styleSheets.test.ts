import { afterEach, describe, expect, it, vi } from 'vitest';
import { adoptStyles, sheetsOf } from '../styleSheets.js';

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.replaceChildren();
  document.adoptedStyleSheets = [];
});

function shadow(): ShadowRoot {
  const host = document.createElement('div');
  document.body.append(host);
  return host.attachShadow({ mode: 'open' });
}

describe('styleSheets', () => {
  it('parses a CSS text once: every root adopts the same sheet, once, and gets no <style>', () => {
    const css = ':host { display: block; }';
    expect(sheetsOf(css)).toBe(sheetsOf(css));
    const a = shadow();
    const b = shadow();
    adoptStyles(a, css);
    adoptStyles(a, css);
    adoptStyles(b, css);
    expect(a.adoptedStyleSheets).toEqual(sheetsOf(css));
    expect(b.adoptedStyleSheets[0]).toBe(a.adoptedStyleSheets[0]);
    expect(a.querySelector('style')).toBeNull();

    adoptStyles(document, 'p { color: red; }');
    expect(document.adoptedStyleSheets).toHaveLength(1);
    expect(document.head.querySelector('style')).toBeNull();
  });

  it('falls back to a <style> element where constructable sheets are missing', () => {
    vi.stubGlobal('CSSStyleSheet', undefined);
    expect(sheetsOf('a {}')).toBeNull();
    const root = shadow();
    adoptStyles(root, ':host { color: red; }');
    expect(root.querySelector('style')?.textContent).toBe(':host { color: red; }');
    expect(root.adoptedStyleSheets).toEqual([]);
    adoptStyles(document, 'p { margin: 0; }');
    expect(document.head.querySelector('style')?.textContent).toBe('p { margin: 0; }');
  });
});
