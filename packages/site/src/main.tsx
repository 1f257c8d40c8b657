import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { AppProvider } from './app/context.js';
import { createAppServices } from './app/services.js';
import { startErrorReporting } from './app/errorReporting.js';
import { captureInstallPrompt } from './pwa/install.js';
import { registerServiceWorker } from './pwa/serviceWorker.js';
import { getLocation } from './router/index.js';
import { resolveRoute } from './routes.js';
import { PageChrome } from './ui/PageChrome.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('[poruch] #root is missing from index.html');

// The install-prompt event may fire before React renders.
captureInstallPrompt();

const services = createAppServices();
document.documentElement.lang = services.lang;
document.documentElement.dataset.siteName = services.t('app.name');
document.documentElement.dataset.tagline = services.t('app.tagline');

// Start-up calls of spec §7: the login state, and the runtime configuration (the app starts
// without it when it fails, and no toast is shown for it).
void services.auth.getState().check();
services.api
  .request('GET', 'env', {
    root: true,
    // zod and the schemas load with the answer, not before the first render.
    loadSchema: () => import('@poruch/core/schemas').then((m) => m.runtimeConfigSchema),
    silent: true,
  })
  .then((config) => {
    services.config.setState(config);
    startErrorReporting(config);
  })
  .catch(() => undefined);
void registerServiceWorker(services);

// A handle for the browser suites (packages/site/e2e): only when the test flag is stored.
try {
  if (localStorage.getItem('poruch_e2e') === '1')
    (window as unknown as { __poruch: unknown }).__poruch = services;
} catch {
  // Storage blocked: no handle.
}

// The first screen's code is loaded before the first render (the server preloads its chunks
// beside this one, see scripts/prerender.mjs): until then the prerendered HTML in #root stays on
// screen, and React replaces it with the same page instead of a loading spinner. A failed load
// renders anyway (the screen's Suspense retries).
const first = resolveRoute(getLocation().path);
void (first ? first.route.screen.preload() : Promise.resolve())
  .catch(() => undefined)
  .then(() => {
    const reactRoot = createRoot(root);
    // A transition renders in slices that yield to the browser every few milliseconds, instead of
    // one long task that blocks input (Lighthouse's total blocking time): the prerendered page is
    // on screen meanwhile, so nothing waits for it.
    startTransition(() =>
      reactRoot.render(
        <StrictMode>
          <AppProvider services={services}>
            <App />
            <PageChrome />
          </AppProvider>
        </StrictMode>,
      ),
    );
  });
