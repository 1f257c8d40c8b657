/** A header menu item, with the fields of spec §2 "Header menu". */
export interface MenuItem {
  /** Translation key of the label. */
  name: string;
  link: string;
  /** Shown only when logged out (and, per spec, only in the ua locale). */
  loggedOutOnly?: boolean;
  /** Shown only when logged in. */
  loggedInOnly?: boolean;
  /** Rendered as a button-styled link. */
  type?: 'button';
  /** Active only on an exact path match (services = home). */
  exact?: boolean;
}

export const MENU: readonly MenuItem[] = [
  { name: 'menu.services', link: '/', exact: true },
  { name: 'menu.about', link: '/about' },
  { name: 'menu.support', link: '/support' },
  { name: 'menu.login', link: '/login', loggedOutOnly: true },
  { name: 'menu.register', link: '/provide-help', loggedOutOnly: true, type: 'button' },
  { name: 'menu.account', link: '/dashboard', loggedInOnly: true },
];

export function isActive(item: MenuItem, path: string): boolean {
  if (item.exact) return path === item.link;
  return path === item.link || path.startsWith(`${item.link}/`);
}
