import { useEffect, useId, useState } from 'react';
import type { Account } from '@poruch/core';
import { MENU, isActive } from '../menu.js';
import type { Session } from '../session.js';
import { t } from '../text.js';

export interface SiteHeaderProps {
  status: Session['status'];
  account: Account | null;
  /** The current path, for `aria-current`. */
  path: string;
  onLogout: () => void;
}

/**
 * The header of spec §2: brand, menu and the login state. Below 1170px the menu collapses into a
 * slide-in panel opened by the menu button.
 */
export function SiteHeader({ status, account, path, onLogout }: SiteHeaderProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const loggedIn = account !== null;
  const items = MENU.filter((item) =>
    loggedIn
      ? !item.loggedOutOnly
      : !item.loggedInOnly && !(status === 'loading' && item.loggedOutOnly),
  );

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
      <div className="site-header__inner">
        <a className="brand" href="/" aria-label={t('brand.home')}>
          <img className="brand__icon" src="/icon.svg" alt="" width="32" height="32" />
          <span className="brand__name">Poruch</span>
        </a>
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
              <li key={item.name}>
                <a
                  className={
                    item.type === 'button' ? 'menu__link menu__link--button' : 'menu__link'
                  }
                  href={item.link}
                  aria-current={isActive(item, path) ? 'page' : undefined}
                  onClick={() => setOpen(false)}
                >
                  {t(item.name)}
                </a>
              </li>
            ))}
            {loggedIn && (
              <li>
                <button type="button" className="menu__link menu__logout" onClick={onLogout}>
                  {t('menu.logout')}
                </button>
              </li>
            )}
          </ul>
          <p className="session" aria-live="polite" data-testid="session">
            {status === 'loading' && (
              <span className="session__loading">{t('session.loading')}</span>
            )}
            {account && (
              <>
                {t('session.logged_in_as')} <strong title={account.email}>{account.email}</strong>
              </>
            )}
          </p>
        </nav>
      </div>
    </header>
  );
}
