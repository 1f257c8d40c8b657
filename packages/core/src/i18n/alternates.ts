import { LOCALE_CODES, type LocaleCode } from './locales.js';
import { LOCALE_QUERY_PARAM } from './storage.js';

/**
 * The hreflang of each interface language's pages: Ukrainian, and English for every English
 * reader (the British spelling is the site's, not a region it is meant for).
 */
export const HREFLANG: Readonly<Record<LocaleCode, string>> = { ua: 'uk', en_GB: 'en' };

/** The URL of a page in one language: `?lang=<code>` on its address. */
export const localeUrl = (url: string, locale: LocaleCode): string =>
  `${url}${url.includes('?') ? '&' : '?'}${LOCALE_QUERY_PARAM}=${locale}`;

/**
 * The language versions of a page (an absolute URL without `lang`): each interface language's
 * `?lang=` URL with its hreflang, then `x-default`, the plain URL, which is served in the
 * visitor's language (the stored choice, else Accept-Language, else Ukrainian).
 */
export function localeAlternates(url: string): { hreflang: string; href: string }[] {
  return [
    ...LOCALE_CODES.map((code) => ({ hreflang: HREFLANG[code], href: localeUrl(url, code) })),
    { hreflang: 'x-default', href: url },
  ];
}
