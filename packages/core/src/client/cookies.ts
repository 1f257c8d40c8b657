/**
 * The value of a cookie of this page, from `document.cookie`; undefined when there is no such
 * cookie or no document (Node, workers).
 */
export function readCookie(name: string): string | undefined {
  const doc = (globalThis as { document?: { cookie?: string } }).document;
  const cookie = doc?.cookie;
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
