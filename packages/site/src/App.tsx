import { useCallback } from 'react';
import { logout } from './session.js';
import { t } from './text.js';
import { SiteFooter } from './ui/SiteFooter.js';
import { SiteHeader } from './ui/SiteHeader.js';
import { StatusBanner } from './ui/StatusBanner.js';
import { useSession } from './useSession.js';

const FEATURES = [
  { title: 'home.catalogue', text: 'home.catalogue_text' },
  { title: 'home.map', text: 'home.map_text' },
  { title: 'home.vacancies', text: 'home.vacancies_text' },
] as const;

/** The application shell: header, main area and footer, wired to the start-up session. */
export function App() {
  const session = useSession();

  const onLogout = useCallback(() => {
    void logout().then(() => window.location.assign('/login'));
  }, []);

  return (
    <div className="app" data-state={session.status}>
      <SiteHeader
        status={session.status}
        account={session.account}
        path={window.location.pathname}
        onLogout={onLogout}
      />
      {session.status === 'error' && <StatusBanner onRetry={session.retry} />}
      <main className="site-main" id="main">
        <section className="hero">
          <h1 className="hero__title">{t('home.title')}</h1>
          <p className="hero__intro">{t('home.intro')}</p>
        </section>
        <ul className="features">
          {FEATURES.map((f) => (
            <li key={f.title} className="feature">
              <h2 className="feature__title">{t(f.title)}</h2>
              <p className="feature__text">{t(f.text)}</p>
            </li>
          ))}
        </ul>
      </main>
      <SiteFooter />
    </div>
  );
}
