import { createElement, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { defineElement } from '../defineElement.js';
import { HOST_STYLES } from './theme.js';
import { adoptStyles } from './styleSheets.js';
import type { WidgetBaseProps } from './WidgetShell.js';

/**
 * How an attribute's text becomes a prop:
 * - `string`: the text, or undefined when absent;
 * - `number`: a finite number, or undefined;
 * - `boolean`: present and not `"false"`/`"0"` is true; absent is undefined;
 * - `json`: `JSON.parse` of the text (undefined when it does not parse);
 * - a function: your own parser of the text (or null when absent).
 *
 * The property of the same name (camelCase: `service-id` → `serviceId`) takes any value,
 * objects included. Setting a `string`, `number` or `boolean` property writes the attribute
 * back; other values live on the property only (the attribute is left alone).
 */
export type AttributeType =
  'string' | 'number' | 'boolean' | 'json' | ((text: string | null) => unknown);

export interface WidgetDefinition<P> {
  /** The element name; starts with `poruch-`. */
  tag: `poruch-${string}`;
  /** The React component; it receives the props below plus `host`, `apiBase` and `lang`. */
  component: ComponentType<P & WidgetBaseProps>;
  /**
   * The widget's own attributes, kebab-case, with their types. `api-base`, `lang` and `theme`
   * are always there. Defaults to none.
   */
  attributes?: Record<string, AttributeType>;
}

/** The instance side of every widget element. */
export interface PoruchElement extends HTMLElement {
  /** `loading`, `ready` or `error`, as the `state` attribute says. */
  readonly state: string | null;
  /** The Poruch site the widget calls. */
  apiBase: string | undefined;
  /** The widget language. */
  lang: string;
  [prop: string]: unknown;
}

const camel = (kebab: string) => kebab.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());

function parse(type: AttributeType, text: string | null): unknown {
  if (typeof type === 'function') return type(text);
  if (text === null) return undefined;
  switch (type) {
    case 'string':
      return text;
    case 'number': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return text !== 'false' && text !== '0';
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
  }
}

/**
 * Defines the custom element around a widget component (guarded: a second definition is
 * skipped with a `[poruch]` warning) and returns its class.
 *
 * The element attaches an open shadow root, mounts the component there when connected and
 * re-renders it on every attribute or property change. When removed, it unmounts the tree
 * (a microtask later, so moving the element keeps it), which runs every effect's cleanup:
 * listeners, timers, requests and map instances go with it.
 *
 * ```ts
 * export const PoruchMapElement = defineWidget({
 *   tag: 'poruch-map',
 *   component: PoruchMap,
 *   attributes: { country: 'string', zoom: 'number', online: 'boolean', center: parseCenter },
 * });
 * ```
 */
export function defineWidget<P>(definition: WidgetDefinition<P>): CustomElementConstructor {
  const types: Record<string, AttributeType> = {
    'api-base': 'string',
    lang: 'string',
    theme: 'string',
    ...definition.attributes,
  };
  const names = Object.keys(types);

  class Widget extends HTMLElement {
    static get observedAttributes() {
      return names;
    }

    private readonly mountPoint: HTMLElement;
    private root: Root | null = null;
    private props: Record<string, unknown> = {};
    private unmountQueued = false;

    constructor() {
      super();
      const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      this.mountPoint = document.createElement('div');
      shadow.replaceChildren(this.mountPoint);
      adoptStyles(shadow, HOST_STYLES);
    }

    get state(): string | null {
      return this.getAttribute('state');
    }

    connectedCallback() {
      // Properties set before the element was upgraded shadow the accessors: move them over.
      for (const name of names) {
        const prop = camel(name);
        if (Object.prototype.hasOwnProperty.call(this, prop)) {
          const value = (this as unknown as Record<string, unknown>)[prop];
          delete (this as unknown as Record<string, unknown>)[prop];
          (this as unknown as Record<string, unknown>)[prop] = value;
        }
      }
      if (!this.hasAttribute('state')) this.setAttribute('state', 'loading');
      this.root ??= createRoot(this.mountPoint);
      this.render();
    }

    disconnectedCallback() {
      if (this.unmountQueued) return;
      this.unmountQueued = true;
      // Later, so React is not unmounted while it renders the removal, and a move keeps the tree.
      queueMicrotask(() => {
        this.unmountQueued = false;
        if (this.isConnected || !this.root) return;
        this.root.unmount();
        this.root = null;
      });
    }

    attributeChangedCallback(name: string, oldValue: string | null, value: string | null) {
      if (oldValue === value) return;
      // An attribute written by hand wins over an object set on the property earlier.
      delete this.props[camel(name)];
      this.render();
    }

    /** The component's props: the attributes parsed, overridden by properties set. */
    private currentProps(): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const name of names) {
        const prop = camel(name);
        const value =
          prop in this.props ? this.props[prop] : parse(types[name]!, this.getAttribute(name));
        if (value !== undefined) out[prop] = value;
      }
      return out;
    }

    private render() {
      if (!this.root || !this.isConnected) return;
      this.root.render(
        createElement(definition.component as ComponentType<Record<string, unknown>>, {
          ...this.currentProps(),
          host: this,
        }),
      );
    }

    /** For accessors: read a prop, or write it (reflecting primitives to the attribute). */
    getProp(name: string): unknown {
      const prop = camel(name);
      return prop in this.props ? this.props[prop] : parse(types[name]!, this.getAttribute(name));
    }

    setProp(name: string, value: unknown) {
      const type = types[name]!;
      const primitive =
        (type === 'string' && typeof value === 'string') ||
        (type === 'number' && typeof value === 'number') ||
        (type === 'boolean' && typeof value === 'boolean');
      if (value === undefined || value === null) {
        delete this.props[camel(name)];
        this.removeAttribute(name);
      } else if (primitive) {
        delete this.props[camel(name)];
        if (value === false) this.removeAttribute(name);
        else this.setAttribute(name, value === true ? '' : String(value));
      } else {
        this.props[camel(name)] = value;
      }
      this.render();
    }
  }

  for (const name of names) {
    // `lang` is HTMLElement's own reflecting property; keep it, the attribute change re-renders.
    if (name === 'lang') continue;
    Object.defineProperty(Widget.prototype, camel(name), {
      configurable: true,
      enumerable: true,
      get(this: Widget) {
        return this.getProp(name);
      },
      set(this: Widget, value: unknown) {
        this.setProp(name, value);
      },
    });
  }

  defineElement(definition.tag, Widget);
  return (customElements.get(definition.tag) as CustomElementConstructor | undefined) ?? Widget;
}
