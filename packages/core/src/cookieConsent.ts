import { COOKIES_ESSENTIALS_KEY, COOKIES_MARKETING_KEY } from './constants.js';

/** The part of Web Storage the consent needs; localStorage by default. */
export interface ConsentStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The visitor's cookie choice (docs/product.md, Cookie consent). */
export interface CookieConsent {
  /** True once the essentials flag is stored: the banner no longer shows. */
  readonly decided: boolean;
  /** Analytics may run. True when no value is stored: analytics defaults to on. */
  readonly analytics: boolean;
}

function defaultStorage(): ConsentStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function read(storage: ConsentStorage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: ConsentStorage | undefined, analytics: boolean): CookieConsent {
  try {
    // Both flags hold the text `true` or `false`.
    storage?.setItem(COOKIES_ESSENTIALS_KEY, 'true');
    storage?.setItem(COOKIES_MARKETING_KEY, String(analytics));
  } catch {
    // Storage blocked or full: the choice holds for this page only.
  }
  return { decided: true, analytics };
}

/**
 * The stored cookie choice. Without localStorage (Node, blocked storage) nothing is decided and
 * analytics defaults to on, as with an empty storage.
 *
 * @param storage Defaults to localStorage.
 */
export function readCookieConsent(
  storage: ConsentStorage | undefined = defaultStorage(),
): CookieConsent {
  return {
    decided: read(storage, COOKIES_ESSENTIALS_KEY) === 'true',
    analytics: read(storage, COOKIES_MARKETING_KEY) !== 'false',
  };
}

/**
 * Accept: stores both flags as `true`. The caller starts analytics.
 *
 * @param storage Defaults to localStorage.
 */
export const acceptAllCookies = (
  storage: ConsentStorage | undefined = defaultStorage(),
): CookieConsent => write(storage, true);

/**
 * Reject: stores essentials `true` and marketing `false`. The caller removes analytics scripts
 * and cookies.
 *
 * @param storage Defaults to localStorage.
 */
export const rejectCookies = (
  storage: ConsentStorage | undefined = defaultStorage(),
): CookieConsent => write(storage, false);

/**
 * Save (preferences dialog): stores essentials `true` and the analytics choice. The caller
 * starts or removes analytics and closes the dialog and the banner.
 *
 * @param storage Defaults to localStorage.
 */
export const saveCookieConsent = (
  analytics: boolean,
  storage: ConsentStorage | undefined = defaultStorage(),
): CookieConsent => write(storage, analytics);
