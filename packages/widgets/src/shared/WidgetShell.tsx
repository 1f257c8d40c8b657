import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import root, { useShadowRoot } from 'react-shadow';
import { createApi, missingTranslation } from '@poruch/core/lite';
import { emit as emitEvent } from '../emit.js';
import { ENGLISH } from './english.js';
import { loadWidgetI18n, loadedWidgetI18n, type WidgetI18n } from './createWidgetI18n.js';
import type { Messages } from './messages.js';
import { langDir, resolveLang } from './lang.js';
import { resolveTheme, SHELL_STYLES, type WidgetTheme } from './theme.js';
import { adoptStyles, sheetsOf } from './styleSheets.js';
import { WidgetContext, type WidgetContextValue, type WidgetState } from './WidgetContext.js';

/** The props every widget component accepts, as attributes on its element. */
export interface WidgetBaseProps {
  /**
   * The Poruch site whose API the widget calls, e.g. `https://poruch.org`.
   * Defaults to the origin the script-tag build was loaded from, or the page's origin (`/`).
   */
  apiBase?: string;
  /**
   * Credentials of the widget's `GET`s (React only, no attribute). The site's own pages pass
   * `same-origin` so that a call matches the page's preload of it; anything else the widget
   * sends stays without credentials. Defaults to `omit`.
   */
  readCredentials?: RequestCredentials;
  /**
   * `ua` or `en_GB` (also `uk`, `en`, `en-GB`). Defaults to `<html lang>`, else `ua`.
   */
  lang?: string;
  /**
   * `light` (opaque, readable on any page), `dark`, or `auto` (follows the visitor's
   * `prefers-color-scheme`). Custom properties the page sets win over either. Defaults to `light`.
   */
  theme?: WidgetTheme;
  /** Called when the widget's state changes. Defaults to none. */
  onStateChange?: (state: WidgetState) => void;
  /**
   * The custom element around the component, set by {@link defineWidget}: events start from it
   * and it carries the `state` attribute. Leave it out in a React app.
   */
  host?: HTMLElement;
}

export interface WidgetShellProps extends WidgetBaseProps {
  /** The widget's CSS, after the shared reset ({@link SHELL_STYLES}). */
  styles: string;
  /** Names of the `part`s inside, exported so `::part()` reaches them from the host page. */
  parts: readonly string[];
  /** Translation namespaces beyond common, error and widget (messages.ts). Defaults to none. */
  messages?: readonly Messages[];
  /** Event handlers of the component: `emit('select', d)` calls `handlers.onSelect?.(d)`. */
  handlers?: object;
  children: ReactNode;
}

// noUncheckedIndexedAccess types the proxy's members as possibly undefined; `div` always exists.
const ShadowDiv = root.div!;
/**
 * react-shadow re-runs its attachShadow effect whenever `styleSheets` changes, and its default
 * is a new array each render; a second attachShadow throws (a DOMException outside Chrome).
 * The sheets are adopted by {@link ShadowStyles} instead: react-shadow's own `styleSheets`
 * handling writes to a root it has not stored yet when React runs the effect twice (StrictMode).
 */
const NO_SHEETS: CSSStyleSheet[] = [];

/**
 * The shell's CSS inside its shadow root: adopted sheets, not a `<style>`, because a host page's
 * CSP without 'unsafe-inline' blocks those; a `<style>` only where constructable sheets are
 * missing. Adopted in a layout effect, so before the first paint.
 */
function ShadowStyles({ css }: { css: string }) {
  const shadow = useShadowRoot();
  const adopt = !!sheetsOf(css);
  useLayoutEffect(() => {
    if (shadow && adopt) adoptStyles(shadow, css);
  }, [shadow, adopt, css]);
  return adopt ? null : <style>{css}</style>;
}

/** True in the script-tag build (rollup replaces it). */
declare const __PORUCH_CDN__: boolean | undefined;

/**
 * The default `api-base`: in the script-tag build, the origin the script was loaded from (the
 * Poruch server serves it); elsewhere the page's own origin.
 */
let defaultApiBase =
  typeof __PORUCH_CDN__ !== 'undefined' && __PORUCH_CDN__
    ? new URL('/', import.meta.url).href
    : '/';
/** Sets the default `api-base` of every widget. Called by the script-tag build. */
export function setDefaultApiBase(base: string): void {
  defaultApiBase = base;
}

const capitalise = (name: string) =>
  name.replace(/(^|[-:])(\w)/g, (_m, _sep: string, c: string) => c.toUpperCase());

const isForeign = (base: string) => {
  if (typeof location === 'undefined') return false;
  try {
    return new URL(base, location.href).origin !== location.origin;
  } catch {
    return false;
  }
};

/** Watches `<html lang>` so widgets without a `lang` follow the page's language switch. */
function useDocumentLang(): string | undefined {
  const [docLang, setDocLang] = useState(() =>
    typeof document === 'undefined' ? undefined : document.documentElement.lang,
  );
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => setDocLang(document.documentElement.lang));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    return () => observer.disconnect();
  }, []);
  return docLang;
}

/**
 * The frame of every widget: a shadow root (react-shadow) holding the shared reset, the
 * widget's styles and its tree, and the context {@link useWidget} reads. Widget components
 * render their content inside it:
 *
 * ```tsx
 * export function PoruchThing(props: ThingProps) {
 *   return <WidgetShell {...props} styles={css} parts={PARTS} handlers={props}><Thing {...props} /></WidgetShell>;
 * }
 * ```
 */
export function WidgetShell(props: WidgetShellProps) {
  const { styles, parts, children, host, handlers, onStateChange } = props;
  const docLang = useDocumentLang();
  const lang = resolveLang(props.lang, docLang);
  const apiBase = props.apiBase || defaultApiBase;
  const shadowHost = useRef<HTMLElement | null>(null);
  const stateRef = useRef<WidgetState | undefined>(undefined);
  const latest = useRef({ host, handlers, onStateChange });
  useLayoutEffect(() => {
    latest.current = { host, handlers, onStateChange };
  });

  const messages = props.messages;
  // A language other than the inline default (ua) is imported when a widget shows it. Until it
  // is here the shell shows nothing (never raw keys); after a language change it keeps showing
  // the previous language until the new one is here.
  const current = loadedWidgetI18n(lang, messages);
  const [shown, setShown] = useState<WidgetI18n | undefined>(current);
  if (current && current !== shown) setShown(current);
  const i18n = current ?? shown;
  const [, setLoads] = useState(0);
  // Started while rendering, not in an effect (preact runs those after a frame): the chunks are
  // requested as soon as the element is connected. Idempotent; the effect below waits for them.
  // An element imports its English in one chunk (english.ts); a React component (no tag), the
  // namespaces' own chunks.
  const chunk = lang === 'en_GB' && host ? ENGLISH[host.localName] : undefined;
  if (!current) loadWidgetI18n(lang, messages, chunk).catch(() => undefined);
  const readCredentials = props.readCredentials;
  const api = useMemo(
    () =>
      createApi({
        baseUrl: apiBase,
        credentials: 'omit',
        ...(readCredentials ? { readCredentials } : {}),
      }),
    [apiBase, readCredentials],
  );

  const getHost = useCallback(() => latest.current.host ?? shadowHost.current, []);
  const css = SHELL_STYLES + styles;

  const emit = useCallback(
    <T,>(name: string, detail: T): boolean => {
      const fn = (latest.current.handlers as Record<string, unknown> | undefined)?.[
        `on${capitalise(name)}`
      ];
      if (typeof fn === 'function') (fn as (d: T) => void)(detail);
      const el = getHost();
      return el ? emitEvent(el, name, detail) : true;
    },
    [getHost],
  );

  const setState = useCallback(
    (state: WidgetState, error?: unknown) => {
      if (stateRef.current === state) return;
      stateRef.current = state;
      getHost()?.setAttribute('state', state);
      latest.current.onStateChange?.(state);
      if (state === 'ready') emit('ready', null);
      if (state === 'error') emit('error', { error });
    },
    [emit, getHost],
  );

  useEffect(() => {
    if (current) return;
    let live = true;
    loadWidgetI18n(lang, messages, chunk).then(
      () => {
        if (live) setLoads((n) => n + 1);
      },
      (error: unknown) => {
        if (!live) return;
        console.error(`[poruch] could not load the ${lang} translations`, error);
        // With a language on screen the widget stays in it; with none it has nothing to show.
        if (!shown) setState('error', error);
      },
    );
    return () => {
      live = false;
    };
  }, [current, lang, messages, chunk, shown, setState]);

  const value = useMemo<WidgetContextValue>(
    () => ({
      api,
      // Until a language is loaded the content is not rendered, so this `t` is never called.
      t: i18n ? i18n.t : missingTranslation,
      lang: i18n ? i18n.lang : lang,
      siteBase: api.base,
      emit,
      setState,
      host: getHost,
      embedded: isForeign(api.base),
    }),
    [api, i18n, lang, emit, setState, getHost],
  );

  return (
    <ShadowDiv
      ref={shadowHost}
      styleSheets={NO_SHEETS}
      className="poruch-shell"
      // React passes unknown attributes through; the DOM typings do not know this one.
      {...({ exportparts: parts.join(', ') } as Record<string, string>)}
    >
      <ShadowStyles css={css} />
      {i18n && (
        <div
          className="poruch-root"
          part="root"
          lang={i18n.lang === 'ua' ? 'uk' : 'en-GB'}
          dir={langDir(i18n.lang)}
          data-theme={resolveTheme(props.theme)}
        >
          <WidgetContext.Provider value={value}>{children}</WidgetContext.Provider>
        </div>
      )}
    </ShadowDiv>
  );
}
