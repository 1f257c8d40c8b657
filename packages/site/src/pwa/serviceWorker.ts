import { UPDATE_WORKER_DELAY } from '@poruch/core';
import type { AppServices } from '../app/services.js';

/**
 * URL of the service worker the build writes from sw.template.js (see vite.config.ts). Why not
 * Workbox (measured): docs/architecture.md, "Hand-written infrastructure".
 */
export const SERVICE_WORKER_URL = '/sw.js';

/** Resolves once the app is stable (loaded and idle), or after `UPDATE_WORKER_DELAY` (30 s). */
export function whenStable(maxDelay: number = UPDATE_WORKER_DELAY): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxDelay);
    const idle = () => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      if ('requestIdleCallback' in window) window.requestIdleCallback(done, { timeout: maxDelay });
      else setTimeout(done, 1000);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

/**
 * Registers the service worker once the app is stable (or after 30 s) and asks "A new version
 * is available. Load it now?" when a new one is waiting; on yes, the new worker takes over and
 * the page reloads.
 */
export async function registerServiceWorker(
  services: Pick<AppServices, 't' | 'confirm'>,
): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  await whenStable();
  let registration: ServiceWorkerRegistration | undefined;
  try {
    registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  } catch (err) {
    console.warn('[poruch] service worker registration failed', err);
    return undefined;
  }
  // Blocked service workers (some automation and privacy modes) resolve to nothing.
  if (!registration) return undefined;
  const reg = registration;
  let asked = false;
  const ask = async (worker: ServiceWorker) => {
    if (asked) return;
    asked = true;
    const { t } = services;
    const answer = await services.confirm({
      header: t('update.header'),
      message: t('update.prompt'),
      acceptLabel: t('update.accept'),
      rejectLabel: t('update.reject'),
    });
    if (answer !== 'accept') return;
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
      once: true,
    });
    worker.postMessage({ type: 'SKIP_WAITING' });
  };
  const watch = (worker: ServiceWorker | null) => {
    if (!worker) return;
    const check = () => {
      // Only an update: the very first install has no controller and needs no prompt.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) void ask(worker);
    };
    check();
    worker.addEventListener('statechange', check);
  };
  watch(reg.waiting);
  reg.addEventListener('updatefound', () => watch(reg.installing));
  // Look for a new version every hour while the page stays open.
  setInterval(() => void reg.update().catch(() => undefined), 60 * 60 * 1000);
  return reg;
}
