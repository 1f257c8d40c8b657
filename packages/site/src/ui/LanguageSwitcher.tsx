import { useId } from 'react';
import {
  LANGUAGE_OPTIONS,
  flagUrl,
  isLocaleCode,
  storeLocale,
  withoutLocaleQuery,
  type LocaleCode,
} from '@poruch/core';
import { useApp } from '../app/context.js';

/**
 * The language switcher: Ukrainian (UA flag) and English (GB flag). A choice is stored
 * (localStorage and the `locale` cookie) and the page reloads in it, without a `?lang=` the
 * address had.
 */
export function switchLanguage(locale: LocaleCode, to?: string): void {
  storeLocale(locale);
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  const next = withoutLocaleQuery(to ?? here);
  if (next === here) window.location.reload();
  else window.location.assign(next);
}

/** The language switcher: a choice goes through switchLanguage. */
export function LanguageSwitcher() {
  const { t, locale } = useApp();
  const id = useId();
  const current = LANGUAGE_OPTIONS.find((o) => o.code === locale) ?? LANGUAGE_OPTIONS[0]!;
  return (
    <div className="language">
      <img
        className="language__flag"
        src={flagUrl(current.country)}
        alt=""
        width="24"
        height="18"
      />
      <label className="visually-hidden" htmlFor={id}>
        {t('language.label')}
      </label>
      <select
        id={id}
        className="language__select"
        value={locale}
        data-testid="language"
        onChange={(e) => {
          const next = e.target.value;
          if (!isLocaleCode(next) || next === locale) return;
          switchLanguage(next);
        }}
      >
        <LanguageOptions />
      </select>
    </div>
  );
}

/** The `<option>`s of a language choice: Ukrainian and English, each by its own name. */
export function LanguageOptions() {
  return LANGUAGE_OPTIONS.map((o) => (
    <option key={o.code} value={o.code}>
      {o.name}
    </option>
  ));
}
