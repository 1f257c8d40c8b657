/**
 * The server render of the build step (scripts/prerender.mjs, in Node): each route's first screen
 * as HTML, in each interface language and the logged-out-or-unknown state, so the browser
 * paints the page before any JavaScript runs. Home is rendered whole (its hero, search form and
 * result bar); every other route gets the header, a loading state and its footer, since its
 * content depends on the login state or on the API. main.tsx then renders the same page over it
 * (createRoot replaces the prerendered nodes; nothing is hydrated).
 */
import { LOCALE_CODES, feedLinks, initI18n, type LocaleCode } from '@poruch/core';
import { renderToString } from 'react-dom/server';
import { AppProvider } from './app/context.js';
import { createAppServices } from './app/services.js';
import { RouteContext } from './router/index.js';
import { ROUTES, type RouteDef } from './routes.js';
import { Layout } from './ui/Layout.js';
import { PageLoading } from './ui/PageLoading.js';

export { ROUTES, LOCALE_CODES };

/**
 * The head of a route's page in `locale`: `<html lang>` (and `data-locale`, the language the app
 * starts in), the title and description the app's applySeo writes for it, and the text shown
 * without JavaScript.
 */
export function pageHead(name: string, locale: LocaleCode) {
  const route = ROUTES.find((r) => r.name === name);
  const { t, lang } = createAppServices(initI18n(locale));
  const site = t('app.name');
  return {
    lang,
    title:
      !route || route.name === 'home'
        ? `${site} — ${t('app.tagline')}`
        : `${t(route.title)} — ${site}`,
    description: t(route?.description ?? 'app.tagline'),
    noscript: t('app.noscript'),
    /** The Atom feeds, named in the head in this language. */
    feeds: feedLinks(locale, t),
  };
}
/** The profile widget's shadow-root CSS: the server draws a profile's first screen with it. */
export { SERVICE_SHADOW_CSS } from '@poruch/widgets';

/** The HTML inside `#root` for `route` (a route of ROUTES, by name) in `locale`. */
export async function renderRoute(name: string, locale: LocaleCode = 'ua'): Promise<string> {
  const route: RouteDef | undefined = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`[poruch] prerender: no route ${name}`);
  const Screen = route.screen;
  // Loaded first, so it renders at once instead of suspending.
  if (route.name === 'home') await Screen.preload();
  const services = createAppServices(initI18n(locale));
  return renderToString(
    <AppProvider services={services}>
      <Layout route={route}>
        <RouteContext.Provider value={{ name: route.name, pattern: route.path, params: {} }}>
          {route.name === 'home' ? <Screen /> : <PageLoading />}
        </RouteContext.Provider>
      </Layout>
    </AppProvider>,
  );
}
