import type { RuntimeConfig } from '@poruch/core';

/** Marks the scripts this module adds, so they can be found and removed. */
const MARK = 'data-poruch-analytics';

/** Cookies Google Analytics and Tag Manager set: removed on reject. */
const ANALYTICS_COOKIE = /^(_ga|_ga_.*|_gid|_gat.*|_gcl_.*|AMP_TOKEN)$/;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

function addScript(src: string, kind: string): void {
  if (document.querySelector(`script[${MARK}="${kind}"]`)) return;
  const s = document.createElement('script');
  s.async = true;
  s.src = src;
  s.setAttribute(MARK, kind);
  document.head.append(s);
}

/**
 * Loads Google Analytics (gtag) and Tag Manager with the ids of `GET /env`. Does nothing for an
 * id that is not configured, and nothing twice.
 */
export function startAnalytics(config: Pick<RuntimeConfig, 'analyticsId' | 'tagManagerId'>): void {
  const { analyticsId, tagManagerId } = config;
  if (analyticsId) {
    (window as unknown as Record<string, unknown>)[`ga-disable-${analyticsId}`] = false;
    window.dataLayer = window.dataLayer ?? [];
    window.gtag =
      window.gtag ??
      function gtag(...args: unknown[]) {
        window.dataLayer!.push(args);
      };
    window.gtag('js', new Date());
    window.gtag('config', analyticsId, { anonymize_ip: true });
    addScript(
      `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(analyticsId)}`,
      'gtag',
    );
  }
  if (tagManagerId) {
    window.dataLayer = window.dataLayer ?? [];
    window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    addScript(
      `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(tagManagerId)}`,
      'gtm',
    );
  }
}

/** Deletes a cookie on this host and on each parent domain (GA sets them on the top domain). */
function deleteCookie(name: string): void {
  const parts = window.location.hostname.split('.');
  const domains = [''];
  for (let i = 0; i < parts.length - 1; i++) domains.push(`; domain=.${parts.slice(i).join('.')}`);
  for (const d of domains) {
    document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${d}`;
  }
}

/** Removes the analytics and tag-manager scripts and their cookies, and stops gtag. */
export function stopAnalytics(
  config: Pick<RuntimeConfig, 'analyticsId'> | null | undefined = null,
): void {
  document.querySelectorAll(`script[${MARK}]`).forEach((s) => s.remove());
  if (config?.analyticsId)
    (window as unknown as Record<string, unknown>)[`ga-disable-${config.analyticsId}`] = true;
  delete window.gtag;
  delete window.dataLayer;
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name && ANALYTICS_COOKIE.test(name)) deleteCookie(name);
  }
}
