import { DEFAULT_LOCALE, type LocaleCode } from './i18n/locales.js';
import type { Translate } from './i18n/translate.js';

/** The site's Atom feeds (server routes/feeds.ts, docs/open-data.md): path and title key. */
export const FEEDS = [
  { path: '/feeds/services.atom', title: 'feeds.services_title' },
  { path: '/feeds/vacancies.atom', title: 'feeds.vacancies_title' },
] as const;

/**
 * The feeds as a page names them in its head (`<link rel="alternate"
 * type="application/atom+xml">`): titled in the page's language, and in that language (`?lang=`)
 * unless it is the default, Ukrainian.
 */
export const feedLinks = (locale: LocaleCode, t: Translate): { title: string; href: string }[] =>
  FEEDS.map((feed) => ({
    title: t(feed.title),
    href: locale === DEFAULT_LOCALE ? feed.path : `${feed.path}?lang=${locale}`,
  }));
