import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, isLocaleCode, type LocaleCode } from './locales.js';

/** localStorage, when this runtime has one that works (not in Node, not when blocked). */
function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Reading localStorage throws when the browser blocks storage for this origin.
    return undefined;
  }
}

/**
 * The locale stored under the localStorage key `locale`, or `fallback` when none is stored,
 * the stored value is not an interface language, or there is no localStorage.
 *
 * @param fallback Defaults to `ua`.
 */
export function getStoredLocale(fallback: LocaleCode = DEFAULT_LOCALE): LocaleCode {
  try {
    const value = storage()?.getItem(LOCALE_STORAGE_KEY);
    return isLocaleCode(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Stores the chosen locale under the localStorage key `locale`. Returns false when there is no
 * usable localStorage. The caller reloads the page (the language switcher).
 */
export function storeLocale(locale: LocaleCode): boolean {
  const s = storage();
  if (!s) return false;
  try {
    s.setItem(LOCALE_STORAGE_KEY, locale);
    return true;
  } catch {
    return false;
  }
}
