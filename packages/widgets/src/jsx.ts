// `import '@poruch/widgets/jsx'` (once, anywhere in a React 19 app) types the `<poruch-*>`
// elements in JSX: `<poruch-map country="PL" />`. React 19 sets a prop as the element's
// property when the element has one (every attribute has: `apiBase`, `tileUrl`, `filters`…)
// and as an attribute otherwise, so both names are typed: the property (any value it takes)
// and the kebab-case attribute (text). The elements must be defined for anything to render:
// `import '@poruch/widgets/map/element'`, or the script-tag loader.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PoruchElementTagNameMap } from './types/elements.js';

/** `tileUrl` → `tile-url`. */
type Kebab<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `-${Lowercase<H>}`}${Kebab<T>}`
  : S;

/** An element's writable properties (not HTMLElement's own, not `state`). */
type Properties<E> = Omit<E, keyof HTMLElement | 'state'>;

/** The JSX props of a `<poruch-*>` element. */
export type PoruchElementProps<E extends HTMLElement> = DetailedHTMLProps<HTMLAttributes<E>, E> &
  Partial<Properties<E>> & {
    [K in keyof Properties<E> & string as Kebab<K> extends K ? never : Kebab<K>]?:
      string | number | boolean;
  };

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface IntrinsicElements extends PoruchIntrinsicElements {}
  }
}

/** The `<poruch-*>` elements as JSX intrinsic elements. */
export type PoruchIntrinsicElements = {
  [T in keyof PoruchElementTagNameMap]: PoruchElementProps<PoruchElementTagNameMap[T]>;
};
