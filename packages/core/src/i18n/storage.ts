import {
  DEFAULT_LOCALE,
  LOCALE_CODES,
  LOCALE_DEFINITIONS,
  LOCALE_STORAGE_KEY,
  isLocaleCode,
  type LocaleCode,
} from './locales.js';

/**
 * The cookie that carries the chosen language to the server, so it serves the first screen in it
 * (a strictly necessary preference cookie: the name and the locale code, nothing else).
 */
export const LOCALE_COOKIE = 'locale';
/** How long the language cookie lives: a year, renewed whenever the app starts. */
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
/** The query parameter that asks for a page in a language: `?lang=en_GB`, `?lang=ua`. */
export const LOCALE_QUERY_PARAM = 'lang';

/** localStorage, when this runtime has one that works (not in Node, not when blocked). */
function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Reading localStorage throws when the browser blocks storage for this origin.
    return undefined;
  }
}

/** The value of the `locale` cookie in a Cookie header (or `document.cookie`), if it is a locale. */
export function localeFromCookie(cookieHeader: string | undefined | null): LocaleCode | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === LOCALE_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return isLocaleCode(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The locale a query string asks for with `lang` (`?lang=en_GB`), if it is an interface language. */
export function localeFromQuery(search: string): LocaleCode | undefined {
  const value = new URLSearchParams(search).get(LOCALE_QUERY_PARAM);
  return isLocaleCode(value) ? value : undefined;
}

/**
 * A same-site URL (path, query, hash) without its `lang` parameter: where the page goes after the
 * visitor chooses a language, so the chosen one is not overruled by the old link's `?lang=`.
 */
export function withoutLocaleQuery(url: string): string {
  const parsed = new URL(url, 'http://x');
  parsed.searchParams.delete(LOCALE_QUERY_PARAM);
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/**
 * The interface language for a list of language tags in order of preference (an
 * `Accept-Language` header, or `navigator.languages`): the one with the highest weight whose
 * primary language is an interface language's (`uk` for ua, `en` for en_GB), first listed on a tie;
 * `ua` when none is.
 */
export function negotiateLocale(accept: string | readonly string[] | undefined | null): LocaleCode {
  const tags = typeof accept === 'string' ? accept.split(',') : (accept ?? []);
  let best: LocaleCode = DEFAULT_LOCALE;
  let bestQ = 0;
  for (const raw of tags) {
    const [tag = '', ...params] = raw.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!(weight > bestQ)) continue;
    const primary = tag.trim().split('-')[0];
    const code = LOCALE_CODES.find(
      (c) => LOCALE_DEFINITIONS[c].bcp47.split('-')[0]!.toLowerCase() === primary,
    );
    if (code) {
      best = code;
      bestQ = weight;
    }
  }
  return best;
}

/** The locale stored under localStorage `locale`, else in the `locale` cookie, if any. */
function readStoredLocale(): LocaleCode | undefined {
  try {
    const value = storage()?.getItem(LOCALE_STORAGE_KEY);
    if (isLocaleCode(value)) return value;
  } catch {
    // Storage blocked: the cookie, if any.
  }
  try {
    return typeof document === 'undefined' ? undefined : localeFromCookie(document.cookie);
  } catch {
    return undefined;
  }
}

/**
 * The locale stored under the localStorage key `locale` (else in the `locale` cookie), or
 * `fallback` when none is stored, the stored value is not an interface language, or there is no
 * storage.
 *
 * @param fallback Defaults to `ua`.
 */
export function getStoredLocale(fallback: LocaleCode = DEFAULT_LOCALE): LocaleCode {
  return readStoredLocale() ?? fallback;
}

/** Writes the `locale` cookie (a year, the whole site, Lax; Secure on https). */
function writeLocaleCookie(locale: LocaleCode): boolean {
  try {
    if (typeof document === 'undefined') return false;
    const secure = typeof location !== 'undefined' && location.protocol === 'https:';
    document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
    return true;
  } catch {
    return false;
  }
}

/**
 * Stores the chosen locale under the localStorage key `locale` and in the `locale` cookie (which
 * the server reads to serve the first screen in it). Returns false when neither could be stored.
 * The caller reloads the page (the language switcher).
 */
export function storeLocale(locale: LocaleCode): boolean {
  const cookie = writeLocaleCookie(locale);
  const s = storage();
  if (!s) return cookie;
  try {
    s.setItem(LOCALE_STORAGE_KEY, locale);
    return true;
  } catch {
    return cookie;
  }
}

/**
 * The language a page of the site starts in, the one its first screen was served in: the page's
 * `?lang=`, else the stored choice, else the language the server chose for the page (`serverLocale`,
 * from its `Accept-Language`), else the browser's languages. A `?lang=` or stored choice is
 * (re)stored, so the cookie stays in step with localStorage and the next page is served in it.
 */
export function startLocale(
  search: string,
  serverLocale: string | undefined,
  languages: readonly string[] | undefined,
): LocaleCode {
  const asked = localeFromQuery(search);
  const chosen = asked ?? readStoredLocale();
  if (chosen) {
    storeLocale(chosen);
    return chosen;
  }
  return isLocaleCode(serverLocale) ? serverLocale : negotiateLocale(languages);
}
