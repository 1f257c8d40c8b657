/** `ua` or `en` for a language code (`uk`, `en-GB`, `en_US`…), as shared/lang.ts reads it. */
function kind(value: string | null): 'ua' | 'en' | undefined {
  const code = (value ?? '').trim().toLowerCase().replace('_', '-');
  if (code === 'ua' || code === 'uk' || code.startsWith('uk-') || code.startsWith('ua-'))
    return 'ua';
  if (code === 'en' || code.startsWith('en-')) return 'en';
  return undefined;
}

/**
 * Whether `el` will show English: its `lang`, else `<html lang>`, as resolveLang (shared/lang.ts)
 * decides. A copy of its rule, because importing it would make it a chunk of its own that the
 * loader waits for; a test checks that both agree.
 */
export function showsEnglish(el: Element): boolean {
  return (kind(el.getAttribute('lang')) ?? kind(document.documentElement.lang)) === 'en';
}
