import { type I18n, createI18nFrom, setSharedI18n } from './instance.js';
import { DEFAULT_LOCALE, isLocaleCode, type LocaleCode } from './locales.js';
import { getStoredLocale } from './storage.js';

/**
 * Each locale's translations as a dynamic import of the same files `TRANSLATIONS` bundles: a
 * bundler puts each into its own chunk, so a page downloads and parses only the active one.
 */
const LOCALE_LOADERS: Readonly<Record<LocaleCode, () => Promise<object>>> = {
  ua: () => import('./locales/ua.json').then((m) => m.default),
  en_GB: () => import('./locales/en_GB.json').then((m) => m.default),
};

/**
 * Loads the active locale's translations only and creates the page's shared instance with them
 * (the site's start-up). Switching the language stores it and reloads the page, which
 * loads the other file then.
 *
 * @param locale Defaults to the stored locale, else `ua`.
 */
export async function loadI18n(locale: LocaleCode = getStoredLocale()): Promise<I18n> {
  const code = isLocaleCode(locale) ? locale : DEFAULT_LOCALE;
  const resources = await LOCALE_LOADERS[code]();
  return setSharedI18n(createI18nFrom(code, { [code]: resources }));
}
