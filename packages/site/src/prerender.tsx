/**
 * The server render of the build step (scripts/prerender.mjs, in Node): each route's first screen
 * as HTML, in the default language (ua) and the logged-out-or-unknown state, so the browser
 * paints the page before any JavaScript runs. Home is rendered whole (its hero, search form and
 * result bar); every other route gets the header, a loading state and its footer, since its
 * content depends on the login state or on the API. main.tsx then renders the same page over it
 * (createRoot replaces the prerendered nodes; nothing is hydrated).
 */
import { initI18n } from '@poruch/core';
import { renderToString } from 'react-dom/server';
import { AppProvider } from './app/context.js';
import { createAppServices } from './app/services.js';
import { RouteContext } from './router/index.js';
import { ROUTES, type RouteDef } from './routes.js';
import { Layout } from './ui/Layout.js';
import { PageLoading } from './ui/PageLoading.js';

export { ROUTES };
/** The profile widget's shadow-root CSS: the server draws a profile's first screen with it. */
export { SERVICE_SHADOW_CSS } from '@poruch/widgets';

/** The HTML inside `#root` for `route` (a route of ROUTES, by name). */
export async function renderRoute(name: string): Promise<string> {
  const route: RouteDef | undefined = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`[poruch] prerender: no route ${name}`);
  const Screen = route.screen;
  // Loaded first, so it renders at once instead of suspending.
  if (route.name === 'home') await Screen.preload();
  const services = createAppServices(initI18n('ua'));
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
