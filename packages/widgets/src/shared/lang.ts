import { DEFAULT_LOCALE, type LocaleCode } from '@poruch/core/lite';

/**
 * The writing direction of a widget language, set on the widget's root so that the host page's
 * (`<html dir="rtl">`) never reaches inside. Both languages are left to right.
 */
export const langDir = (_lang: LocaleCode): 'ltr' | 'rtl' => 'ltr';

/**
 * The widget language for a `lang` attribute value or, when it is empty, the page's
 * `<html lang>`: `uk`, `ua` and `uk-UA` give `ua`; `en`, `en-GB` and `en_US` give `en_GB`.
 * Anything else gives the default, `ua`.
 */
export function resolveLang(
  value: string | null | undefined,
  documentLang: string | null | undefined = typeof document === 'undefined'
    ? undefined
    : document.documentElement.lang,
): LocaleCode {
  const pick = (v: string | null | undefined): LocaleCode | undefined => {
    const code = (v ?? '').trim().toLowerCase().replace('_', '-');
    if (!code) return undefined;
    if (code === 'ua' || code === 'uk' || code.startsWith('uk-') || code.startsWith('ua-'))
      return 'ua';
    if (code === 'en' || code.startsWith('en-')) return 'en_GB';
    return undefined;
  };
  return pick(value) ?? pick(documentLang) ?? DEFAULT_LOCALE;
}
