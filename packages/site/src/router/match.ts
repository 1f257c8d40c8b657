/** Parameters of a matched path: `:name` segments, and `*` for the rest of a `/*` pattern. */
export type RouteParams = Readonly<Record<string, string>>;

/**
 * Matches `path` against `pattern`: literal segments, `:name` parameters, `:name?` optional
 * trailing parameters and a final `*` for any rest (also none). Case-sensitive; both sides
 * without a trailing slash. Returns the parameters, or null when it does not match.
 *
 * @example matchPath('/services/:id/:tab?', '/services/42') // { id: '42' }
 * @example matchPath('/dashboard/*', '/dashboard/services/7') // { '*': 'services/7' }
 */
export function matchPath(pattern: string, path: string): RouteParams | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const seg = want[i]!;
    if (seg === '*' && i === want.length - 1) {
      params['*'] = have.slice(i).join('/');
      return params;
    }
    const value = have[i];
    if (seg.startsWith(':')) {
      const optional = seg.endsWith('?');
      const name = seg.slice(1, optional ? -1 : undefined);
      if (value === undefined) {
        if (optional) continue;
        return null;
      }
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return null;
      }
      continue;
    }
    if (value !== seg) return null;
  }
  return have.length <= want.length ? params : null;
}
