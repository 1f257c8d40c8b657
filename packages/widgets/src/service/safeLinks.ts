/**
 * A website link's href, only for http and https URLs; null for anything else
 * (`javascript:`, `data:`, relative paths without `base`), which is then shown as text.
 *
 * @param base resolves a relative `url` (a page's `location.href`). Defaults to none.
 */
export function safeWebHref(url: string | null | undefined, base?: string): string | null {
  if (!url) return null;
  try {
    const u = new URL(url.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** A `tel:` href of a phone number (a plus and digits only), or null when it has no digits. */
export function telHref(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = phone.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d{3,}/.test(digits) ? `tel:${digits}` : null;
}
