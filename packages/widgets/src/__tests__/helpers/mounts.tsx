import { cleanup, render } from '@testing-library/react';
import { afterEach } from 'vitest';
import type { ComponentType } from 'react';
import { apiServerForSuite, type ApiServer } from './apiServer.js';

/** Attributes of a widget, as a page writes them (kebab-case). */
export type Attributes = Record<string, string | undefined>;
/** Mounts a widget and returns the node its content is under. */
export type Mount = (attrs: Attributes) => Promise<HTMLElement>;

const camel = (kebab: string) => kebab.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The two ways a widget runs, for `describe.each`: the React component (as the site and React
 * apps use it) and the custom element (as the script tag defines it). Each behaviour suite
 * runs once per way.
 *
 * @param component The widget's React component.
 * @param tag The element's tag; its element module must have been imported.
 * @param numeric Attributes the component takes as numbers.
 */
export function mountsFor(
  component: ComponentType<any>,
  tag: string,
  numeric: readonly string[] = [],
): [string, Mount][] {
  const Component = component;
  return [
    [
      'React component',
      async (attrs) => {
        const props: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(attrs)) {
          if (v !== undefined) props[camel(k)] = numeric.includes(k) ? Number(v) : v;
        }
        return render(<Component {...props} />).container;
      },
    ],
    [
      'custom element',
      async (attrs) => {
        const el = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs))
          if (v !== undefined) el.setAttribute(kebab(k), v);
        document.body.append(el);
        return el;
      },
    ],
  ];
}

/** Removes the elements a suite appended (the React ones go with testing-library's cleanup). */
export function removeElements(tag: string): void {
  for (const el of Array.from(document.querySelectorAll(tag))) el.remove();
}

/**
 * Unmounts the suite's widgets after each of its tests: the React ones (testing-library's
 * cleanup) and the elements with `tag`.
 */
export function unmountAfterEach(tag: string): void {
  afterEach(() => {
    cleanup();
    removeElements(tag);
  });
}

/**
 * The set-up of a widget's behaviour suite, called at its top level: the real API
 * (apiServerForSuite: seed it in the suite's `beforeAll`), the widgets unmounted after each
 * test (unmountAfterEach) and the two ways to mount the widget (mountsFor), for
 * `describe.each(mounts)`.
 */
export function widgetSuite(
  component: ComponentType<any>,
  tag: string,
  numeric: readonly string[] = [],
): { api: ApiServer; mounts: [string, Mount][] } {
  const api = apiServerForSuite();
  unmountAfterEach(tag);
  return { api, mounts: mountsFor(component, tag, numeric) };
}
