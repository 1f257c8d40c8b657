import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import csrf from '@fastify/csrf-protection';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PoruchError, XSRF_COOKIE, XSRF_HEADER } from '@poruch/core';
import { createRateLimitStore, type RateLimitStore } from '../lib/rate-limiter.js';
import type { Env } from '../env.js';
import { SESSION_COOKIE } from './auth.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Where rate-limit hits are counted. */
    rateLimitStore: RateLimitStore;
  }
  interface FastifyContextConfig {
    /**
     * Set to false on anonymous, cookie-less routes (report, used mark, one-click unsubscribe)
     * that other origins may call. Defaults to true on state-changing methods.
     */
    csrf?: boolean;
    /** Answer any origin without credentials (public reads, anonymous posts). Defaults to false. */
    public?: boolean;
  }
}

/** The origins whose pages may make credentialed calls: PUBLIC_URL's and ALLOWED_ORIGINS'. */
export function allowedOriginsOf(env: Pick<Env, 'PUBLIC_URL' | 'ALLOWED_ORIGINS'>): Set<string> {
  const origins = new Set<string>();
  for (const entry of [env.PUBLIC_URL, ...env.ALLOWED_ORIGINS.split(',')]) {
    const origin = normalOrigin(entry.trim());
    if (origin) origins.add(origin);
  }
  return origins;
}

/** `scheme://host[:port]` as URL serialises it (lower case, no default port), or null. */
function normalOrigin(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Whether an Origin header names one of `allowed` ("null" and anything malformed do not). */
export function isAllowedOrigin(allowed: Set<string>, origin: string): boolean {
  const normal = normalOrigin(origin.trim().replace(/\/$/, ''));
  return normal !== null && allowed.has(normal);
}

/**
 * What the browser says about where a request comes from, checked on state-changing requests:
 * - `Sec-Fetch-Site: cross-site` is refused whatever the Origin: the session cookie is
 *   SameSite=Lax, so no page of another site makes a legitimate credentialed call (an origin in
 *   ALLOWED_ORIGINS works only on the same site, e.g. a subdomain);
 * - an `Origin` must be PUBLIC_URL's or one of ALLOWED_ORIGINS; `Origin: null` (a sandboxed frame,
 *   a data: or file: page, a redirect across sites) is refused too; `same-site` and `same-origin`
 *   pass only with an allowed Origin when one is sent;
 * - neither header (curl, scripts, old browsers): nothing to check here; the token decides.
 * Returns why a request is refused, or null.
 */
export function crossSiteRequest(
  headers: FastifyRequest['headers'],
  allowed: Set<string>,
): 'cross-site' | 'origin' | null {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site.trim().toLowerCase() === 'cross-site') return 'cross-site';
  const origin = headers.origin;
  if (origin !== undefined && !isAllowedOrigin(allowed, origin)) return 'origin';
  return null;
}

/**
 * Where the map's tiles come from, for the CSP's img-src beside `https:` (which covers any https
 * tile server): the origin of an http(s) TILE_URL, its `{s}` subdomain a wildcard; none for
 * `none` or anything that is not a URL. Without it an http tile server (one on the operator's own
 * network, or a local one) would be refused by the site's own policy.
 */
export function tileImageSources(tileUrl: string): string[] {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl.trim());
  if (!match) return [];
  const host = match[2]!.replace(/\{s\}/g, '*').toLowerCase();
  // Only a host (a wildcard as its first label, as CSP allows) and a port.
  if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/.test(host)) return [];
  return [`${match[1]!.toLowerCase()}://${host}`];
}

/**
 * Cookies, CSP, CORS, CSRF and rate limiting: everything a request passes before a route.
 */
export const securityPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const allowedOrigins = allowedOriginsOf(env);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          'https://www.googletagmanager.com',
          'https://www.google-analytics.com',
        ],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...tileImageSources(env.TILE_URL)],
        connectSrc: [
          "'self'",
          'https://*.google-analytics.com',
          'https://www.googletagmanager.com',
        ],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: env.PUBLIC_URL.startsWith('https://') ? [] : null,
      },
    },
    // Widgets and their bundles are loaded by other sites.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: env.PUBLIC_URL.startsWith('https://'),
  });

  // Public routes answer any origin without credentials; credentialed ones only our origins.
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      const isPublic = request.routeOptions?.config?.public === true;
      if (origin && isAllowedOrigin(allowedOrigins, origin)) {
        callback(null, {
          origin,
          credentials: true,
          allowedHeaders: ['content-type', XSRF_HEADER],
        });
      } else if (isPublic || request.method === 'OPTIONS' || !request.routeOptions?.config) {
        // A preflight reaches the cors plugin's own OPTIONS route, not the public route's config
        // (embedded widgets POST reports and "used" marks with a JSON body, so they preflight).
        // Answering it without credentials exposes nothing: the real call is checked again.
        callback(null, { origin: '*', credentials: false, allowedHeaders: ['content-type'] });
      } else {
        callback(null, { origin: false });
      }
    },
  });

  // Shared by every instance through Redis when REDIS_URL is set (fail-open), else in memory.
  const store = createRateLimitStore(env.REDIS_URL, app.log);
  app.addHook('onClose', async () => store.close());
  app.decorate('rateLimitStore', store);

  await app.register(csrf, {
    cookieKey: '_csrf',
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: 'auto' },
    getToken: (request) => request.headers[XSRF_HEADER] as string | undefined,
  });

  /**
   * The second layer in front of the token: a state-changing request that a browser says came from
   * another site is refused before its body is read (403 `forbidden`, detail `origin`). Checked on
   * every route that takes the token, and on the anonymous ones (csrf: false) when they carry a
   * session cookie; the widgets' anonymous calls come without cookies and pass.
   */
  const checkOrigin = async (request: FastifyRequest) => {
    const anonymous = request.routeOptions.config?.csrf === false;
    if (anonymous && !request.cookies[SESSION_COOKIE]) return;
    if (crossSiteRequest(request.headers, allowedOrigins)) {
      throw new PoruchError(403, 'forbidden', 'origin');
    }
  };

  // Every state-changing route checks the origin and the header against the cookie; a route opts
  // out of the token (not of the origin check with a session) with `config: { csrf: false }`.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => STATE_CHANGING.has(m))) return;
    route.onRequest = [checkOrigin, ...(route.onRequest ? [route.onRequest].flat() : [])];
    if (route.config?.csrf === false) return;
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [app.csrfProtection, ...existing];
  });
});

/** A Cache-Control that keeps the answer out of shared caches: `private` or `no-store`. */
export function isPrivateAnswer(cacheControl: unknown): boolean {
  return /(?:^|,)\s*(?:private|no-store)\s*(?:,|=|$)/i.test(String(cacheControl ?? ''));
}

/**
 * Cookies only on answers no shared cache keeps. Registered after the http-cache plugin, so its
 * onSend hook runs last (after the route's Cache-Control is decided and @fastify/cookie has
 * written the cookies the handler set):
 * - a GET whose answer is private or no-store (auth/check, which the site calls at start, and
 *   every other session-dependent read) hands out the anti-forgery pair (`_csrf` secret and the
 *   readable `XSRF-TOKEN`) when the browser lacks it, so the first state-changing call can carry it;
 * - any other answer (public, s-maxage, immutable, `no-cache` pages, files, 304s, or no
 *   Cache-Control at all) goes out without a single Set-Cookie: a shared cache (CDN, nginx) would
 *   hand the same cookies to every visitor.
 */
export const cookiePolicyPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (!isPrivateAnswer(reply.getHeader('cache-control'))) {
      reply.removeHeader('set-cookie');
      return payload;
    }
    if (request.method !== 'GET') return payload;
    if (request.cookies._csrf && request.cookies[XSRF_COOKIE]) return payload;
    const token = reply.generateCsrf();
    reply.setCookie(XSRF_COOKIE, token, {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure: 'auto',
    });
    return payload;
  });
});
