/* Poruch service worker. The build fills in the version and the precache list (see vite.config.ts). */
const VERSION = '__VERSION__';
const PRECACHE = JSON.parse('__PRECACHE__');
const CACHE = `poruch-${VERSION}`;
const SHELL = '/index.html';

self.addEventListener('install', (event) => {
  // No skipWaiting here: the page asks "New version available. Load New Version?" first.
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([SHELL, ...PRECACHE]))
      .catch(() => undefined),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('poruch-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The API and the runtime configuration are always fresh.
  if (/^\/(api|env|healthz|readyz|sitemap\.xml|robots\.txt)(\/|$)/.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // Network first; offline, the cached app shell routes in the page.
    event.respondWith(
      fetch(request).catch(() => caches.match(SHELL).then((r) => r || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/flags/')) {
    // Content-hashed or immutable: cache first.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              void caches.open(CACHE).then((c) => c.put(request, copy));
            }
            return res;
          }),
      ),
    );
  }
});

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Поруч', {
      body: data.body || '',
      icon: '/icons/icon-192.png',
      data: { url: data.url || '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only a page of this site is opened: the URL is resolved as the browser would and kept
  // only when its origin is the site's own (the rule the site applies to every `back`).
  const given = (event.notification.data && event.notification.data.url) || '/';
  let target = '/';
  try {
    const url = new URL(given, self.location.origin);
    if (url.origin === self.location.origin) {
      target = '/' + url.pathname.replace(/^\/+/, '') + url.search + url.hash; // one leading slash
    }
  } catch {
    // not a URL: the home page
  }
  event.waitUntil(self.clients.openWindow(target));
});
