/**
 * Where `to` leads from `base`, as a path on the same origin (pathname, query and fragment), or
 * null when it leaves that origin or is no URL at all.
 *
 * The one check for every path or URL the site navigates to that it did not write itself: the
 * `back` parameter after login, the router's `navigate()` and `<Link>`, a widget's `back-href`.
 * `to` is resolved the way the browser resolves it (`new URL(to, base)`: tabs and newlines
 * dropped, leading and trailing control characters and spaces trimmed, `\` read as `/`), so
 * `/\t/evil.example`, `/\evil.example` or ` //evil.example` are the other host they are to the
 * browser, never a path. Only the resolved parts are returned, never the string given, and the
 * path starts with exactly one `/` (`/..//evil.example` resolves to the path `//evil.example`,
 * which would read as a host), so the result resolves to the same origin wherever it is used.
 *
 * @param to a path (`/dashboard?x=1#y`, `services`) or a URL; null, undefined and `''` give null.
 * @param base the page's URL or origin (`location.href`, `location.origin`).
 */
export function sameOriginPath(to: string | null | undefined, base: string): string | null {
  if (!to) return null;
  let here: URL;
  let url: URL;
  try {
    here = new URL(base);
    url = new URL(to, here);
  } catch {
    return null;
  }
  // The protocol too: a `blob:` URL's origin is the origin of the page that made it.
  if (here.origin === 'null' || url.origin !== here.origin || url.protocol !== here.protocol)
    return null;
  return `${url.pathname.replace(/^\/+/, '/')}${url.search}${url.hash}`;
}
