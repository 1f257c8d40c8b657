import { I18N_NAMESPACE, loadI18n, startLocale, type LocaleCode } from '@poruch/core';
import { provideWidgetMessages } from '@poruch/widgets';
import { StrictMode } from 'react';
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
import { yieldToMain } from './ui/yieldToMain.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('[poruch] #root is missing from index.html');
const container: HTMLElement = root;

// The install-prompt event may fire before React renders.
captureInstallPrompt();

// The first screen's code is loaded before the first render (the server preloads its chunks
// beside this one, see scripts/prerender.mjs): until then the prerendered HTML in #root stays on
// screen, and React replaces it with the same page instead of a loading spinner. A failed load
// renders anyway (the screen's Suspense retries). Started at once, beside the locale's file.
const first = resolveRoute(getLocation().path);
const screenReady = (first ? first.route.screen.preload() : Promise.resolve()).catch(
  () => undefined,
);

async function start(): Promise<void> {
  // Only the active language's translations (a chunk of their own); a switch stores the
  // language and reloads the page, which loads the other one. The language is the one the server
  // served the first screen in (`?lang=`, the stored choice, else its pick from Accept-Language,
  // `<html data-locale>`), so the page does not change language when the app starts.
  const i18n = await loadI18n(
    startLocale(
      window.location.search,
      document.documentElement.dataset.locale,
      navigator.languages,
    ),
  );
  // The widgets on the site's screens read the same file instead of importing their own chunks.
  provideWidgetMessages(
    i18n.language as LocaleCode,
    i18n.getResourceBundle(i18n.language, I18N_NAMESPACE) as Record<string, unknown>,
  );
  await yieldToMain();
  const services = createAppServices(i18n);
  document.documentElement.lang = services.lang;
  document.documentElement.dataset.siteName = services.t('app.name');
  document.documentElement.dataset.tagline = services.t('app.tagline');

  // Start-up calls (docs/product.md, API calls): the login state, and the runtime configuration
  // (the app starts without it when it fails, and no toast is shown for it).
  void services.auth.getState().check();
  services.api
    .getEnv()
    .then((config) => {
      services.config.setState(config, true);
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

  await screenReady;
  await yieldToMain();
  // In the browser the site runs on preact/compat (vite.config.ts): the root renders in one task
  // and replaces the prerendered page with the same page.
  createRoot(container).render(
    <StrictMode>
      <AppProvider services={services}>
        <App />
        <PageChrome />
      </AppProvider>
    </StrictMode>,
  );
}

void start();
