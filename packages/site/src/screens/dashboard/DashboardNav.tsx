import { selectIsAdmin, selectIsSuperAdmin } from '@poruch/core';
import { useAuth, useT } from '../../app/context.js';
import { Link, useLocation } from '../../router/index.js';

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
  const admin: NavItem[] = isAdmin
    ? [
        { to: '/admin', label: t('admin.list_title') },
        { to: '/admin/services', label: t('admin.review_title'), prefix: true },
        { to: '/admin/reports', label: t('admin.reports') },
        { to: '/admin/campaigns', label: t('admin.email_sender') },
        ...(isSuper
          ? [{ to: '/admin/administrators', label: t('admin.administrators_title') }]
          : []),
      ]
    : [];
  const current = (item: NavItem) =>
    path === item.to || (item.prefix === true && path.startsWith(`${item.to}/`));
  const list = (nav: NavItem[]) => (
    <ul className="dash-nav__list">
      {nav
        .filter((i) => i.to !== '/admin/services' || path.startsWith('/admin/services/'))
        .map((item) => (
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
