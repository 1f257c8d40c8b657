import { useId } from 'react';
import { LANGUAGE_OPTIONS, flagUrl, isLocaleCode, storeLocale } from '@poruch/core';
import { useApp } from '../app/context.js';

/**
 * The language switcher: Ukrainian (UA flag) and English (GB flag). A choice is stored
 * under localStorage `locale` and the page reloads in it.
 */
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
          storeLocale(next);
          window.location.reload();
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
