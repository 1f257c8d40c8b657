import { selectIsAdmin, selectIsSuperAdmin } from '@poruch/core';
import { useAuth, useT } from '../../app/context.js';
import { Link, matchPath, useLocation } from '../../router/index.js';
import { ADMIN_SECTIONS } from '../admin/sections.js';

interface NavItem {
  to: string;
  label: string;
  /** Also current for the paths under it. */
  prefix?: boolean;
}

/**
 * The sections of the personal dashboard; administrators also see the administration
 * sections, and super administrators the administrators section.
 */
export function DashboardNav() {
  const t = useT();
  const { path } = useLocation();
  const isAdmin = useAuth(selectIsAdmin);
  const isSuper = useAuth(selectIsSuperAdmin);
  const items: NavItem[] = [
    { to: '/dashboard', label: t('account.title') },
    { to: '/dashboard/services', label: t('account.my_services'), prefix: true },
  ];
  // A section with a parameter (a service's review) shows only while it is open.
  const admin: NavItem[] = isAdmin
    ? ADMIN_SECTIONS.filter(
        (s) => (!('superOnly' in s) || isSuper) && (!('menu' in s) || matchPath(s.path, path)),
      ).map((s) => ({ to: 'menu' in s ? path : s.path, label: t(s.label) }))
    : [];
  const current = (item: NavItem) =>
    path === item.to || (item.prefix === true && path.startsWith(`${item.to}/`));
  const list = (nav: NavItem[]) => (
    <ul className="dash-nav__list">
      {nav.map((item) => (
        <li key={item.to}>
          <Link
            to={item.to}
            className="dash-nav__link"
            aria-current={current(item) ? 'page' : undefined}
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
  return (
    <nav className="dash-nav" aria-label={t('dashboard.title')}>
      {list(items)}
      {admin.length > 0 && (
        <>
          <p className="dash-nav__heading">{t('dashboard.administration')}</p>
          {list(admin)}
        </>
      )}
    </nav>
  );
}
