import type { LocaleCode } from '@poruch/core';

/** A header menu item (docs/product.md, Layout and navigation). */
export interface MenuItem {
  /** Translation key of the label. */
  readonly name: string;
  readonly link: string;
  /** Shown only when logged out. Defaults to false. */
  readonly loggedOutOnly?: boolean;
  /** Shown only when logged in. Defaults to false. */
  readonly loggedInOnly?: boolean;
  /** Rendered as a button (register; logout is a real button). Defaults to a plain link. */
  readonly type?: 'button';
  /** Load the page from the server instead of routing inside the page. Defaults to false. */
  readonly reload?: boolean;
  /** The locales the item shows in. Defaults to every locale. */
  readonly supportsLocale?: readonly LocaleCode[];
  /** Active only on an exact path match (services = home). Defaults to prefix match. */
  readonly exact?: boolean;
  /** Logout: a button that logs out instead of a link. */
  readonly action?: 'logout';
}

export const MENU: readonly MenuItem[] = [
  { name: 'menu.services', link: '/', exact: true },
  { name: 'menu.about', link: '/about' },
  { name: 'menu.support', link: '/support' },
  { name: 'menu.login', link: '/login', loggedOutOnly: true, supportsLocale: ['ua'] },
  {
    name: 'menu.register',
    link: '/provide-help',
    loggedOutOnly: true,
    type: 'button',
    supportsLocale: ['ua'],
  },
  { name: 'menu.account', link: '/dashboard', loggedInOnly: true },
  { name: 'menu.logout', link: '/login', loggedInOnly: true, action: 'logout' },
];

/**
 * The items to show. While the login state is unknown, items that depend on it are left out;
 * the header asks for the logged-out ones then and keeps their place unseen (SiteHeader.tsx).
 */
export function visibleItems(
  status: 'unknown' | 'logged_in' | 'logged_out',
  locale: LocaleCode,
  items: readonly MenuItem[] = MENU,
): MenuItem[] {
  return items.filter((item) => {
    if (item.supportsLocale && !item.supportsLocale.includes(locale)) return false;
    if (item.loggedOutOnly) return status === 'logged_out';
    if (item.loggedInOnly) return status === 'logged_in';
    return true;
  });
}

export function isActive(item: MenuItem, path: string): boolean {
  if (item.exact) return path === item.link;
  return path === item.link || path.startsWith(`${item.link}/`);
}
