import type { Account, LocaleCode } from '@poruch/core';
import { sameOriginPath } from '@poruch/core/lite';
import { describe, expect, it } from 'vitest';
import { decideAccess, resolveRoute, ROUTES, type RouteDef } from '../routes.js';
import { ADMIN_SECTIONS } from '../screens/admin/sections.js';

const route = (name: string): RouteDef => {
  const found = ROUTES.find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};

const account = (type: Account['type']) => ({ type }) as Account;
const loggedOut = { status: 'logged_out', account: null } as const;
const unknown = { status: 'unknown', account: null } as const;
const partner = { status: 'logged_in', account: account('PARTNER') } as const;
const admin = { status: 'logged_in', account: account('ADMIN') } as const;

describe('resolveRoute', () => {
  it.each([
    ['/', 'home', {}],
    ['/login', 'login', {}],
    ['/reset-password', 'reset-password', {}],
    ['/provide-help', 'provide-help', {}],
    ['/dashboard', 'dashboard', { '*': '' }],
    ['/dashboard/services/7', 'dashboard', { '*': 'services/7' }],
    ['/admin/reports', 'admin', { '*': 'reports' }],
    ['/about', 'about', {}],
    ['/store', 'store', {}],
    ['/unsubscribe', 'unsubscribe', {}],
    ['/alerts/confirm', 'alertsConfirm', {}],
    ['/alerts/manage', 'alertsManage', {}],
    ['/services/42', 'profile', { id: '42' }],
    ['/services/42/vacancies', 'profile', { id: '42', tab: 'vacancies' }],
    ['/services/%D0%B0', 'profile', { id: 'а' }],
  ])('%s is the %s route', (path, name, params) => {
    const resolved = resolveRoute(path);
    expect(resolved?.route.name).toBe(name);
    expect(resolved?.params).toEqual(params);
  });

  it.each(['/nowhere', '/services', '/services/1/2/3', '/About', '/services/%E0%A4%A'])(
    '%s matches no route',
    (path) => {
      expect(resolveRoute(path)).toBeNull();
    },
  );

  it('gives every route a unique name', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
  });
});

describe('decideAccess', () => {
  it('lets everyone open a public route, whatever the login state and language', () => {
    for (const auth of [unknown, loggedOut, partner, admin]) {
      for (const locale of ['ua', 'en_GB'] as const) {
        expect(decideAccess(route('about'), auth, locale, '/about')).toEqual({ kind: 'allow' });
      }
    }
  });

  it('waits while the login state is unknown on a restricted route', () => {
    for (const name of ['login', 'dashboard', 'admin']) {
      expect(decideAccess(route(name), unknown, 'ua', '/x')).toEqual({ kind: 'wait' });
    }
  });

  it('sends a logged-in user from a logged-out-only route home', () => {
    for (const name of ['login', 'reset-password', 'provide-help']) {
      expect(decideAccess(route(name), partner, 'ua', '/login')).toEqual({
        kind: 'redirect',
        to: '/',
      });
      expect(decideAccess(route(name), loggedOut, 'ua', '/login')).toEqual({ kind: 'allow' });
    }
  });

  // Home, with the attempted URL for the notice that says why.
  const home = { kind: 'redirect', to: '/', onlyInUkrainian: '/x' };
  const allow = { kind: 'allow' };
  it.each([
    // Outside ua, the locale rule sends a logged-out user home.
    ['login', 'logged out', loggedOut, 'en_GB', home],
    ['reset-password', 'logged out', loggedOut, 'en_GB', home],
    ['provide-help', 'logged out', loggedOut, 'en_GB', home],
    ['dashboard', 'logged out', loggedOut, 'en_GB', home],
    ['admin', 'logged out', loggedOut, 'en_GB', home],
    ['login', 'logged out', loggedOut, 'ua', allow],
    ['dashboard', 'a partner', partner, 'en_GB', allow],
    // The admin area is for administrators.
    ['admin', 'logged out', loggedOut, 'ua', { kind: 'redirect', to: '/login?back=%2Fx' }],
    ['admin', 'a partner', partner, 'ua', { kind: 'redirect', to: '/dashboard' }],
    ['admin', 'an administrator', admin, 'ua', allow],
    ['dashboard', 'an administrator', admin, 'ua', allow],
  ] as const)('%s, %s, in %s', (name, _who, auth, locale, expected) => {
    expect(decideAccess(route(name), auth, locale, '/x')).toEqual(expected);
  });

  it('sends a logged-out user to the login with the attempted URL as `back`', () => {
    const url = '/dashboard/services?tab=a&x=1#top';
    const decision = decideAccess(route('dashboard'), loggedOut, 'ua', url);
    expect(decision.kind).toBe('redirect');
    const to = (decision as { to: string }).to;
    expect(to.startsWith('/login?back=')).toBe(true);
    // The login screen reads `back` and goes exactly where the user was going.
    const back = new URL(to, 'https://poruch.example').searchParams.get('back');
    expect(back).toBe(url);
    expect(sameOriginPath(back, 'https://poruch.example')).toBe(url);
    expect(resolveRoute(new URL(to, 'https://poruch.example').pathname)?.route.name).toBe('login');
  });
});

describe('every administration section', () => {
  const superAdmin = {
    status: 'logged_in',
    account: { type: 'ADMIN', isSuper: true } as Account,
  } as const;
  const paths = ADMIN_SECTIONS.map((s) =>
    s.path.replace(':id', 'c0ffee00-0000-4000-8000-000000000001'),
  );
  const decide = (
    path: string,
    auth: Parameters<typeof decideAccess>[1],
    locale: LocaleCode = 'ua',
  ) => {
    const resolved = resolveRoute(path);
    if (!resolved) throw new Error(`no route for ${path}`);
    return decideAccess(resolved.route, auth, locale, `${path}?page=2`);
  };

  it('lists the audit log and the administrators among the sections', () => {
    expect(paths).toEqual(
      expect.arrayContaining(['/admin', '/admin/audit', '/admin/administrators']),
    );
  });

  it.each(paths)('%s follows the dashboard rules for visitors and partners', (path) => {
    expect(decide(path, unknown)).toEqual({ kind: 'wait' });
    // Logged out: the login, with the way back, exactly as the dashboard does.
    const back = { kind: 'redirect', to: `/login?back=${encodeURIComponent(`${path}?page=2`)}` };
    expect(decide(path, loggedOut)).toEqual(back);
    expect(decide('/dashboard/services', loggedOut)).toEqual({
      ...back,
      to: `/login?back=${encodeURIComponent('/dashboard/services?page=2')}`,
    });
    // Outside ua the locale rule comes first, as for the dashboard: home.
    expect(decide(path, loggedOut, 'en_GB')).toMatchObject({ kind: 'redirect', to: '/' });
    expect(decide('/dashboard', loggedOut, 'en_GB')).toMatchObject({ kind: 'redirect', to: '/' });
    // Logged in without administrator rights: the dashboard.
    expect(decide(path, partner)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decide(path, superAdmin)).toEqual({ kind: 'allow' });
  });

  it.each(ADMIN_SECTIONS.map((s) => [s.path, 'superOnly' in s] as const))(
    '%s is open to administrators unless for super administrators only (%s)',
    (pattern, superOnly) => {
      const path = pattern.replace(':id', 'c0ffee00-0000-4000-8000-000000000001');
      expect(decide(path, admin)).toEqual(
        superOnly ? { kind: 'redirect', to: '/admin' } : { kind: 'allow' },
      );
    },
  );
});

describe('a `back` parameter after login', () => {
  const origin = 'https://poruch.example';
  it.each([
    ['//evil.example', null],
    ['https://evil.example/dashboard', null],
    ['/\\evil.example', null],
    ['javascript:alert(1)', null],
    ['/dashboard?x=1', '/dashboard?x=1'],
    [`${origin}/admin`, '/admin'],
  ])('%s leads to %s', (back, expected) => {
    expect(sameOriginPath(back, origin)).toBe(expected);
  });
});
