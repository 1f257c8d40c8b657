import { describe, expect, it } from 'vitest';
import { sameOriginPath } from '../sameOriginPath.js';

const ORIGIN = 'http://127.0.0.1:4000';
/** Bases as the site passes them: the origin (`back`) and a page's URL (`navigate`). */
const BASES = [ORIGIN, `${ORIGIN}/login?back=%2Fdashboard#top`, `${ORIGIN}/dashboard/services/`];

/** The `back` a page's query string gives (`?back=` + `encoded`), as the login redirect reads it. */
const back = (encoded: string) => new URLSearchParams(`back=${encoded}`).get('back');

/**
 * `to` either gives null or a path that stays on the site: one leading `/` (never `//` or `/\`,
 * which read as a host), resolving to the site's origin from any page, and checked again it is
 * the same path.
 */
function expectOnSite(to: string | null): string | null {
  const label = JSON.stringify(to);
  let first: string | null | undefined;
  for (const base of BASES) {
    const path = sameOriginPath(to, base);
    if (first === undefined) first = path;
    if (path === null) continue;
    expect(path, label).toMatch(/^\/(?![/\\])/);
    expect(new URL(path, base).origin, label).toBe(ORIGIN);
    expect(new URL(path, 'https://other.example/a/b').origin, label).toBe('https://other.example');
    expect(sameOriginPath(path, base), label).toBe(path);
  }
  return first ?? null;
}

/** Every C0 control character, DEL and the space. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)), '\x7f', ' '];
const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;

/** Ways a control character hides a second host or a script, `c` put where it is dropped. */
const TEMPLATES = [
  (c: string) => `/${c}/evil.example`,
  (c: string) => `${c}//evil.example`,
  (c: string) => `//${c}evil.example`,
  (c: string) => `/${c}\\evil.example`,
  (c: string) => `\\${c}\\evil.example`,
  (c: string) => `/${c}%5Cevil.example`,
  (c: string) => `${c}/${c}/${c}evil.example/x?y#z`,
  (c: string) => `https:${c}//evil.example`,
  (c: string) => `${c}https://evil.example`,
  (c: string) => `java${c}script:alert(1)`,
  (c: string) => `${c}javascript:alert(1)`,
  (c: string) => `/..${c}//evil.example`,
];

describe('sameOriginPath', () => {
  it('keeps a path on the site with its query and fragment', () => {
    expect(expectOnSite('/dashboard?x=1#y')).toBe('/dashboard?x=1#y');
    expect(expectOnSite('/dashboard/services?tab=2')).toBe('/dashboard/services?tab=2');
    expect(expectOnSite('/')).toBe('/');
    expect(expectOnSite(back('%2Fdashboard%3Fx%3D1%23y'))).toBe('/dashboard?x=1#y');
    expect(expectOnSite(back('/dashboard?x=1'))).toBe('/dashboard?x=1');
    expect(expectOnSite('/services/абв')).toBe('/services/%D0%B0%D0%B1%D0%B2');
    expect(expectOnSite('/a b')).toBe('/a%20b');
    expect(sameOriginPath('dashboard', ORIGIN)).toBe('/dashboard');
    expect(sameOriginPath('?x=1', `${ORIGIN}/about`)).toBe('/about?x=1');
    // The site's own absolute URL gives its path; userinfo is dropped.
    expect(expectOnSite(`${ORIGIN}/dashboard?x=1#y`)).toBe('/dashboard?x=1#y');
    expect(expectOnSite('http://user:pw@127.0.0.1:4000/x')).toBe('/x');
    expect(expectOnSite('HTTP://127.0.0.1:4000/x')).toBe('/x');
    // One backslash is one slash: a path.
    expect(expectOnSite('\\evil.example')).toBe('/evil.example');
  });

  it('gives null for nothing and for what is no URL', () => {
    expect(sameOriginPath(null, ORIGIN)).toBeNull();
    expect(sameOriginPath(undefined, ORIGIN)).toBeNull();
    expect(sameOriginPath('', ORIGIN)).toBeNull();
    expect(sameOriginPath('http://[::1', ORIGIN)).toBeNull();
    expect(sameOriginPath('/x', 'not a url')).toBeNull();
    expect(sameOriginPath('/x', 'about:blank')).toBeNull();
  });

  it.each([
    // Tabs and newlines, which the URL parser drops (the reported cases, decoded from the query).
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['/\r/evil.example'],
    ['/\t\\evil.example'],
    [back('/%09/evil.example')],
    [back('/%0a/evil.example')],
    [back('/%0D/evil.example')],
    [back('/%09%5Cevil.example')],
    // Backslashes, read as `/` in http(s) URLs.
    ['\\\\evil.example'],
    ['/\\evil.example'],
    ['\\/evil.example'],
    [back('/%5Cevil.example')],
    [back('%5C%5Cevil.example')],
    // Two or more slashes, also encoded in the query.
    ['//evil.example'],
    ['///evil.example'],
    ['//evil.example/dashboard?x=1#y'],
    [back('/%2F/evil.example')],
    [back('%2F%2Fevil.example%2Fx')],
    // Leading spaces and controls, trimmed.
    [' //evil.example'],
    ['\u0000//evil.example'],
    ['\u001f//evil.example'],
    // Other origins: scheme, host, port, userinfo, IPv4 and IPv6 spellings.
    ['https://evil.example'],
    ['HTTPS://EVIL.EXAMPLE/'],
    ['HtTp://evil.example'],
    ['https:evil.example'],
    ['https:/evil.example'],
    ['https:\\\\evil.example'],
    ['http:\\\\evil.example'],
    ['http://127.0.0.1:4000@evil.example/'],
    ['//127.0.0.1:4000@evil.example'],
    ['http://evil.example\\@127.0.0.1:4000/'],
    ['http://127.0.0.1:4001/'],
    ['https://127.0.0.1:4000/'],
    ['http://localhost:4000/'],
    ['//[::1]:4000/'],
    ['http://[::ffff:127.0.0.1]:4000/'],
    ['//0x7f.2:4000/'],
    ['//2130706434:4000/'],
    ['ftp://evil.example/'],
    // Scripts and documents without an origin, and a blob URL of the site's own origin.
    ['javascript:alert(1)'],
    ['JAVASCRIPT:alert(1)'],
    [' javascript:alert(1)'],
    ['java\tscript:alert(1)'],
    [back('java%0Ascript%3Aalert(1)')],
    ['data:text/html,<script>alert(1)</script>'],
    ['DATA:text/html;base64,PHNjcmlwdD4='],
    ['vbscript:msgbox(1)'],
    ['blob:http://127.0.0.1:4000/0b5c9a0e-0000-4000-8000-000000000000'],
    ['about:blank'],
    ['mailto:a@evil.example'],
  ])('gives null for %j', (to) => {
    for (const base of BASES) expect(sameOriginPath(to, base)).toBeNull();
  });

  it('resolves dot segments before it looks, and keeps one leading slash', () => {
    expect(expectOnSite('/..//evil.example')).toBe('/evil.example');
    expect(expectOnSite('/x/..//evil.example')).toBe('/evil.example');
    expect(expectOnSite('/%2e%2e//evil.example')).toBe('/evil.example');
    expect(expectOnSite('/.//evil.example')).toBe('/evil.example');
    expect(expectOnSite('/x/../\\\\evil.example')).toBe('/evil.example');
  });

  it('keeps percent-encoded characters in a path as they are (the path stays on the site)', () => {
    for (const c of CONTROLS) {
      expect(expectOnSite(`/${hex(c)}/evil.example`)).toBe(`/${hex(c)}/evil.example`);
    }
    expect(expectOnSite('/%5Cevil.example')).toBe('/%5Cevil.example');
    expect(expectOnSite('/%2F/evil.example')).toBe('/%2F/evil.example');
  });

  it('never leaves the site for any control character, DEL or space, raw or from the query', () => {
    for (const c of CONTROLS) {
      for (const template of TEMPLATES) {
        const raw = template(c);
        for (const to of [raw, raw.toUpperCase(), back(template(hex(c)))]) expectOnSite(to);
      }
      // The reported form: the dropped character between two slashes.
      expect(sameOriginPath(`/${c}/evil.example`, ORIGIN), JSON.stringify(c)).toBe(
        /[\t\n\r]/.test(c) ? null : `/${hex(c)}/evil.example`,
      );
    }
  });
});
