import { useEffect } from 'react';
import { jsonLdScriptText, localeFromQuery, localeUrl } from '@poruch/core';
import { useApp } from './context.js';

/** What a page tells search engines. */
export interface SeoOptions {
  /** The page's own title; ` — Poruch` is appended. Null for the site name alone (home). */
  title: string | null;
  /** The meta description. Defaults to leaving the current one. */
  description?: string;
  /** Canonical path. Defaults to the current path. */
  path?: string;
  /** Structured data (schema.org), written as one JSON-LD script. Defaults to none. */
  jsonLd?: object | readonly object[] | null;
}

const JSON_LD_ID = 'poruch-jsonld';

function setMeta(attr: 'name' | 'property', key: string, content: string): void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.append(el);
  }
  el.content = content;
}

/** Writes the title, description, canonical link, Open Graph tags and JSON-LD of the page. */
export function applySeo({ title, description, path, jsonLd }: SeoOptions): void {
  const site = document.documentElement.dataset.siteName || 'Poruch';
  document.title = title
    ? `${title} — ${site}`
    : `${site} — ${document.documentElement.dataset.tagline ?? ''}`.replace(/ — $/, '');
  setMeta('property', 'og:title', document.title);
  if (description) {
    setMeta('name', 'description', description);
    setMeta('property', 'og:description', description);
  }
  // A page asked for in one language (`?lang=`) is its own canonical page (hreflang versions).
  const plain = new URL(path ?? window.location.pathname, window.location.origin).href;
  const asked = localeFromQuery(window.location.search);
  const href = asked ? localeUrl(plain, asked) : plain;
  let canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!canonical) {
    canonical = document.createElement('link');
    canonical.rel = 'canonical';
    document.head.append(canonical);
  }
  canonical.href = href;
  setMeta('property', 'og:url', href);
  const old = document.getElementById(JSON_LD_ID);
  if (jsonLd === undefined) return;
  old?.remove();
  if (!jsonLd) return;
  const script = document.createElement('script');
  script.type = 'application/ld+json';
  script.id = JSON_LD_ID;
  // `<` escaped so a text field can never close the script element.
  script.textContent = jsonLdScriptText(jsonLd);
  document.head.append(script);
}

/**
 * Names the site's Atom feeds in the head (`<link rel="alternate" type="application/atom+xml">`),
 * replacing those of another language: the prerendered pages carry them already (the build's
 * scripts/prerender.mjs), this keeps them in the language the visitor switches to.
 */
export function applyFeedLinks(links: readonly { title: string; href: string }[]): void {
  const selector = 'link[rel="alternate"][type="application/atom+xml"]';
  const old = [...document.head.querySelectorAll<HTMLLinkElement>(selector)];
  links.forEach(({ title, href }, i) => {
    const link = old[i] ?? document.createElement('link');
    link.rel = 'alternate';
    link.type = 'application/atom+xml';
    link.title = title;
    link.setAttribute('href', href);
    if (!link.isConnected) document.head.append(link);
  });
  for (const extra of old.slice(links.length)) extra.remove();
}

/**
 * Sets the page's title, description and JSON-LD while the screen is shown (the route table's
 * title is the default). Pass the values once the data has loaded; undefined title = no change.
 */
export function useSeo(options: SeoOptions | undefined): void {
  const { t } = useApp();
  const key = JSON.stringify(options ?? null);
  useEffect(() => {
    if (!options) return;
    applySeo(options);
    return () => {
      document.getElementById(JSON_LD_ID)?.remove();
    };
  }, [key, t]);
}
