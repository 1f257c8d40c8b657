import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { feedLinks, sameOriginPath } from '@poruch/core/lite';
import { useApp, useAuth } from './app/context.js';
import { applyFeedLinks, applySeo } from './app/seo.js';
import { decideAccess, resolveRoute } from './routes.js';
import {
  Navigate,
  RouteContext,
  currentUrl,
  getLocation,
  navigate,
  onNavigationEnd,
  useLocation,
  type RouteMatch,
} from './router/index.js';
import { Layout } from './ui/Layout.js';
import { PageLoading } from './ui/PageLoading.js';

const LocaleNotice = lazy(() => import('./ui/LocaleNotice.js'));

/**
 * The application: the route table under the layout, with the access rules, the redirects after
 * login and logout, and scroll-to-top on every navigation.
 */
export function App() {
  const services = useApp();
  const { auth, locale, t } = services;
  const location = useLocation();
  const authState = useAuth();
  const resolved = resolveRoute(location.path);

  // After login on a logged-out-only screen: `back` when it is a path on this site (resolved by
  // sameOriginPath, which navigate() checks again), else /dashboard. After logout: /login.
  useEffect(
    () =>
      auth.subscribe((state, previous) => {
        if (previous.status === 'logged_out' && state.status === 'logged_in') {
          const loc = getLocation();
          const here = resolveRoute(loc.path);
          if (here?.route.access === 'loggedOutOnly') {
            const back = new URLSearchParams(loc.search).get('back');
            navigate(sameOriginPath(back, window.location.origin) ?? '/dashboard', {
              replace: true,
            });
          }
        } else if (previous.status === 'logged_in' && state.status === 'logged_out') {
          navigate('/login');
        }
      }),
    [auth],
  );

  // Every navigation scrolls to the top, except query-only updates (filters) and Back/Forward.
  useEffect(
    () =>
      onNavigationEnd((_loc, options) => {
        if (!options.keepScroll) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      }),
    [],
  );

  const match = useMemo<RouteMatch | null>(
    () =>
      resolved
        ? { name: resolved.route.name, pattern: resolved.route.path, params: resolved.params }
        : null,
    [resolved?.route, resolved?.params], // eslint-disable-line react-hooks/exhaustive-deps
  );

  // The locale rule's redirect home leaves the attempted URL for home's notice (LocaleNotice),
  // which stays until it is dismissed or the visitor leaves home.
  const decision = resolved
    ? decideAccess(resolved.route, authState, locale, currentUrl(location))
    : null;
  const [notice, setNotice] = useState<string | null>(null);
  const wanted = decision?.kind === 'redirect' ? decision.onlyInUkrainian : undefined;
  // Adjusted while rendering (state that follows the location), so home shows it at once.
  if (wanted && wanted !== notice) setNotice(wanted);
  else if (!wanted && notice !== null && location.path !== '/') setNotice(null);

  // Title and description of the route; screens with their own (profile) override them.
  useEffect(() => {
    if (!resolved) return;
    const { route } = resolved;
    applySeo({
      title: route.name === 'home' ? null : t(route.title),
      description: t(route.description ?? 'app.tagline'),
      path: location.path,
    });
  }, [resolved?.route, location.path, t]); // eslint-disable-line react-hooks/exhaustive-deps

  // The feeds in the head, in the interface language.
  useEffect(() => applyFeedLinks(feedLinks(locale, t)), [locale, t]);

  if (!resolved || !match || !decision) return <Navigate to="/" />;
  const Screen = resolved.route.screen;
  const showNotice = notice !== null && resolved.route.name === 'home';

  return (
    <Layout route={resolved.route}>
      {decision.kind === 'redirect' ? (
        <Navigate to={decision.to} />
      ) : decision.kind === 'wait' ? (
        <PageLoading />
      ) : (
        <RouteContext.Provider value={match}>
          {showNotice && (
            <Suspense fallback={null}>
              <LocaleNotice wanted={notice} onClose={() => setNotice(null)} />
            </Suspense>
          )}
          <Suspense fallback={<PageLoading />}>
            <Screen key={resolved.route.name} />
          </Suspense>
        </RouteContext.Provider>
      )}
    </Layout>
  );
}
