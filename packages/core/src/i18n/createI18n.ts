import { createI18nFrom, peekSharedI18n, setSharedI18n, type I18n } from './instance.js';
import { DEFAULT_LOCALE, type LocaleCode } from './locales.js';
import { TRANSLATIONS } from './resources.js';
import { getStoredLocale } from './storage.js';

export type { I18n };
export { I18N_OPTIONS, translator, currentLocale, createI18nFrom } from './instance.js';

/**
 * A new, initialised i18next instance with the ua and en_GB translations, ready to use
 * synchronously. Independent of the global i18next instance, so a server can hold one per
 * locale and tests cannot leak a language into each other. A browser page that needs only its
 * own language uses `loadI18n` instead.
 *
 * @param locale the active language. Defaults to `ua`; an unknown code falls back to it.
 */
export function createI18n(locale: LocaleCode = DEFAULT_LOCALE): I18n {
  return createI18nFrom(locale, TRANSLATIONS);
}

/**
 * Creates the shared instance of this page (or replaces it) with `locale`: the language stored
 * under localStorage `locale` by default. Returns it.
 *
 * @param locale Defaults to the stored locale, else `ua`.
 */
export function initI18n(locale: LocaleCode = getStoredLocale()): I18n {
  return setSharedI18n(createI18n(locale));
}

/** The shared instance, created by {@link initI18n} on first use. */
export function getI18n(): I18n {
  return peekSharedI18n() ?? initI18n();
}
