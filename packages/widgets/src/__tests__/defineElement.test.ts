import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineElement } from '../defineElement.js';
import { resetWarnings } from '../warnOnce.js';

let n = 0;
const uniqueTag = () => `poruch-test-${++n}`;

afterEach(() => {
  vi.restoreAllMocks();
  resetWarnings();
});

describe('defineElement', () => {
  it('defines a new element and upgrades it', () => {
    const tag = uniqueTag();
    class El extends HTMLElement {}
    expect(defineElement(tag, El)).toBe(true);
    expect(customElements.get(tag)).toBe(El);
    expect(document.createElement(tag)).toBeInstanceOf(El);
  });

  it('skips a second definition of the same class silently', () => {
    const tag = uniqueTag();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    class El extends HTMLElement {}
    defineElement(tag, El);
    expect(defineElement(tag, El)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps the first class and warns once with the [poruch] prefix', () => {
    const tag = uniqueTag();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    class First extends HTMLElement {}
    class Second extends HTMLElement {}
    defineElement(tag, First);
    expect(() => defineElement(tag, Second)).not.toThrow();
    defineElement(tag, Second);
    expect(customElements.get(tag)).toBe(First);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/^\[poruch\] <poruch-test-\d+> is already defined/);
  });

  it('rejects names without the poruch- prefix', () => {
    class El extends HTMLElement {}
    expect(() => defineElement('other-map', El)).toThrow(/poruch-/);
  });
});
