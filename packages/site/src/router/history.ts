/**
 * The router's one source of truth: the browser's location, as an external store over the
 * History API. Every navigation (a link, `navigate()`, the back and forward buttons) goes through
 * here, so listeners see each one once.
 */
import { sameOriginPath } from '@poruch/core/lite';

/** The part of the location the router uses. */
export interface RouterLocation {
  /** Path without a trailing slash (except `/`), e.g. `/dashboard/services`. */
  readonly path: string;
  /** The query string with its `?`, or empty. */
  readonly search: string;
  /** The fragment with its `#`, or empty. */
  readonly hash: string;
  /** Increases with every navigation, also when the URL stays the same. */
  readonly key: number;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. Defaults to false. */
  replace?: boolean;
  /** Keep the scroll position (query-only updates such as filters). Defaults to false. */
  keepScroll?: boolean;
}

/** Called after every navigation, once the location has changed. */
export type NavigationListener = (location: RouterLocation, options: NavigateOptions) => void;

const normalisePath = (path: string): string => {
  const p = path.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return p === '' ? '/' : p;
};

let key = 0;
const read = (): RouterLocation => ({
  path: normalisePath(decodeURI(window.location.pathname)),
  search: window.location.search,
  hash: window.location.hash,
  key: key++,
});

let current: RouterLocation | undefined;
const storeListeners = new Set<() => void>();
const navigationListeners = new Set<NavigationListener>();
let popstateBound = false;

function emit(options: NavigateOptions): void {
  current = read();
  storeListeners.forEach((l) => l());
  const loc = current;
  navigationListeners.forEach((l) => l(loc, options));
}

function bindPopstate(): void {
  if (popstateBound) return;
  popstateBound = true;
  window.addEventListener('popstate', () => emit({ keepScroll: true }));
}

/** The current location (stable object between navigations, for useSyncExternalStore). */
export function getLocation(): RouterLocation {
  if (!current) current = read();
  return current;
}

/** Subscribes to location changes; returns the unsubscribe function. */
export function subscribeLocation(listener: () => void): () => void {
  bindPopstate();
  storeListeners.add(listener);
  return () => storeListeners.delete(listener);
}

/**
 * Runs `listener` after every navigation ("navigation end"): the header panel closes, the page
 * scrolls to the top, the title changes. Returns the unsubscribe function.
 */
export function onNavigationEnd(listener: NavigationListener): () => void {
  bindPopstate();
  navigationListeners.add(listener);
  return () => navigationListeners.delete(listener);
}

/** True when `to` stays on this origin (so the router may handle it). */
export function isInternal(to: string): boolean {
  return sameOriginPath(to, window.location.href) !== null;
}

/**
 * Goes to `to` (a path with optional query and hash, relative to the current page). Every
 * navigation passes through `sameOriginPath`: the router goes to the path it resolves to, never
 * to the string given. A URL on another origin is opened by the browser when it is http(s);
 * anything else (`javascript:`, `data:`) is ignored. Navigating to the current URL still counts
 * as a navigation.
 */
export function navigate(to: string, options: NavigateOptions = {}): void {
  const target = sameOriginPath(to, window.location.href);
  if (target === null) {
    if (/^https?:\/\//i.test(to.trim())) window.location.assign(to);
    return;
  }
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  emit(options);
}

/** A path with its query, as `navigate` and `login?back=` take it. */
export const currentUrl = (loc: RouterLocation = getLocation()): string =>
  `${loc.path}${loc.search}`;
