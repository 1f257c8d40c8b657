import i18next, { type i18n as I18n, type InitOptions } from 'i18next';
import { DEFAULT_LOCALE, LOCALE_CODES, isLocaleCode, type LocaleCode } from './locales.js';
import { I18N_NAMESPACE, TRANSLATIONS } from './resources.js';
import { getStoredLocale } from './storage.js';
import { missingTranslation, type Translate } from './translate.js';

export type { I18n };

/**
 * The i18next options every Poruch instance uses:
 * - `{name}` single-brace interpolation, as the spec writes its messages;
 * - no HTML escaping, because React escapes (never put a translation into innerHTML);
 * - no fallback language: a missing key shows `Missing translation: <key>` in every locale;
 * - dots nest keys, and no namespace separator, so a colon may appear in a key.
 */
export const I18N_OPTIONS = {
  fallbackLng: false,
  supportedLngs: [...LOCALE_CODES],
  // i18next would otherwise try `en` for `en_GB`; the codes are ours, not BCP 47.
  load: 'currentOnly',
  nonExplicitSupportedLngs: false,
  ns: [I18N_NAMESPACE],
  defaultNS: I18N_NAMESPACE,
  keySeparator: '.',
  nsSeparator: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
  parseMissingKeyHandler: (key: string) => missingTranslation(key),
  initAsync: false,
} satisfies InitOptions;

/**
 * A new, initialised i18next instance with the ua and en_GB translations, ready to use
 * synchronously. Independent of the global i18next instance, so a server can hold one per
 * locale and tests cannot leak a language into each other.
 *
 * @param locale the active language. Defaults to `ua`; an unknown code falls back to it.
 */
export function createI18n(locale: LocaleCode = DEFAULT_LOCALE): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...I18N_OPTIONS,
    lng: isLocaleCode(locale) ? locale : DEFAULT_LOCALE,
    resources: Object.fromEntries(
      LOCALE_CODES.map((code) => [code, { [I18N_NAMESPACE]: TRANSLATIONS[code] }]),
    ),
  });
  return instance;
}

let shared: I18n | undefined;

/**
 * Creates the shared instance of this page (or replaces it) with `locale`: the language stored
 * under localStorage `locale` by default. Returns it.
 *
 * @param locale Defaults to the stored locale, else `ua`.
 */
export function initI18n(locale: LocaleCode = getStoredLocale()): I18n {
  shared = createI18n(locale);
  return shared;
}

/** The shared instance, created by {@link initI18n} on first use. */
export function getI18n(): I18n {
  return shared ?? initI18n();
}

/** A plain {@link Translate} function over an instance. Defaults to the shared instance. */
export function translator(instance?: I18n): Translate {
  return (key, params) => {
    const i = instance ?? getI18n();
    return i.t(key, params as Record<string, unknown>) as unknown as string;
  };
}

/** The active locale of an instance (one of ua, en_GB). Defaults to the shared instance. */
export function currentLocale(instance: I18n = getI18n()): LocaleCode {
  const lng = instance.language;
  return isLocaleCode(lng) ? lng : DEFAULT_LOCALE;
}
