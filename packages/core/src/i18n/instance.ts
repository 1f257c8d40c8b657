import i18next, { type i18n as I18n, type InitOptions } from 'i18next';
import { DEFAULT_LOCALE, LOCALE_CODES, isLocaleCode, type LocaleCode } from './locales.js';
import { missingTranslation, type Translate } from './translate.js';

export type { I18n };

/** The i18next namespace holding the translations. */
export const I18N_NAMESPACE = 'translation';

/**
 * The i18next options every Poruch instance uses:
 * - `{name}` single-brace interpolation, as the messages are written;
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
 * A new, initialised i18next instance over the given translations (one object per locale, e.g.
 * only the active one), ready to use synchronously. This module imports no translation file:
 * `createI18n` (every locale, bundled) and `loadI18n` (the active locale, loaded on demand) give
 * it the resources.
 */
export function createI18nFrom(
  locale: LocaleCode,
  resources: Partial<Record<LocaleCode, object>>,
): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...I18N_OPTIONS,
    lng: isLocaleCode(locale) ? locale : DEFAULT_LOCALE,
    resources: Object.fromEntries(
      Object.entries(resources).map(([code, res]) => [code, { [I18N_NAMESPACE]: res }]),
    ),
  });
  return instance;
}

let shared: I18n | undefined;

/** Makes `instance` the page's shared instance (used by {@link translator} without one). */
export function setSharedI18n(instance: I18n): I18n {
  shared = instance;
  return shared;
}

/** The shared instance, or undefined before `initI18n` / `loadI18n` created one. */
export const peekSharedI18n = (): I18n | undefined => shared;

/**
 * A plain {@link Translate} function over an instance. Defaults to the shared instance
 * (`initI18n` / `loadI18n`); before there is one, every key shows as a missing translation.
 */
export function translator(instance?: I18n): Translate {
  return (key, params) => {
    const i = instance ?? shared;
    if (!i) return missingTranslation(key);
    return i.t(key, params as Record<string, unknown>) as unknown as string;
  };
}

/** The active locale of an instance (one of ua, en_GB). Defaults to the shared instance. */
export function currentLocale(instance: I18n | undefined = shared): LocaleCode {
  const lng = instance?.language;
  return isLocaleCode(lng) ? lng : DEFAULT_LOCALE;
}
