import { useEffect, useId, useState } from 'react';
import { useApp, useAuth } from '../app/context.js';
import { isActive, visibleItems } from '../menu.js';
import { Link, onNavigationEnd, useLocation } from '../router/index.js';
import { LanguageSwitcher } from './LanguageSwitcher.js';

/**
 * The header (docs/product.md, Layout and navigation): brand, menu and language switcher. Below
 * 1170px the menu collapses into a slide-in panel, which closes whenever a navigation ends.
 */
export function SiteHeader() {
  const { t, locale, auth } = useApp();
  const status = useAuth((s) => s.status);
  const { path } = useLocation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  // While the login state is unknown (the first paint, before the app's check answers) the
  // logged-out items hold their place unseen: the menu is right-aligned, so items appearing then
  // would move every link before them. Most visitors are logged out, and theirs then just show.
  const pending = status === 'unknown';
  const items = visibleItems(pending ? 'logged_out' : status, locale);

  useEffect(() => onNavigationEnd(() => setOpen(false)), []);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('app.skip_to_content')}
      </a>
      <div className="site-header__inner">
        <Link className="brand" to="/" aria-label={`${t('app.name')} — ${t('menu.services')}`}>
          <img className="brand__icon" src="/icon.svg" alt="" width="32" height="32" />
          <span className="brand__name">{t('app.name')}</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls={panelId}
          aria-label={open ? t('menu.close') : t('menu.open')}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="menu-toggle__bar" />
          <span className="menu-toggle__bar" />
          <span className="menu-toggle__bar" />
        </button>
        <div
          className="menu-backdrop"
          data-open={open}
          onClick={() => setOpen(false)}
          aria-hidden="true"
        />
        <nav id={panelId} className="menu" data-open={open} aria-label={t('menu.label')}>
          <ul className="menu__list">
            {items.map((item) => (
              <li
                key={item.name}
                {...(pending && (item.loggedOutOnly || item.loggedInOnly)
                  ? { className: 'menu__pending', inert: true, 'aria-hidden': true }
                  : {})}
              >
                {item.action === 'logout' ? (
                  <button
                    type="button"
                    className="menu__link menu__logout"
                    onClick={() => {
                      setOpen(false);
                      void auth.getState().logout();
                    }}
                  >
                    {t(item.name)}
                  </button>
                ) : (
                  <Link
                    className={
                      item.type === 'button' ? 'menu__link menu__link--button' : 'menu__link'
                    }
                    to={item.link}
                    reload={item.reload}
                    aria-current={isActive(item, path) ? 'page' : undefined}
                  >
                    {t(item.name)}
                  </Link>
                )}
              </li>
            ))}
          </ul>
          <LanguageSwitcher />
        </nav>
      </div>
    </header>
  );
}
