import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * How an answer may be cached. `public`: by browsers (`max-age`) and shared caches such as a CDN or
 * nginx (`s-maxage`), with an ETag and 304 on a matching If-None-Match. `private`: never stored
 * (`private, no-store`): anything that depends on the session, has side effects or must be fresh.
 */
export type CachePolicy =
  | {
      kind: 'public';
      /** Seconds a browser may reuse the answer without asking. */
      maxAge: number;
      /** Seconds a shared cache (CDN, nginx) may reuse it. */
      sMaxAge: number;
      /** Seconds a shared cache may serve it stale while it revalidates in the background. */
      staleWhileRevalidate?: number;
    }
  | { kind: 'private' };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's cache policy. Every GET route has one, inline or in CACHE_POLICIES (a test
     * checks). Set by the http-cache plugin from the table when the route does not declare it.
     */
    cache?: CachePolicy;
  }
  interface FastifyInstance {
    /** GET routes registered without a cache policy (a test requires none; static files aside). */
    uncachedGetRoutes: string[];
  }
}

/** A public, CDN-cacheable policy. */
export const publicCache = (
  maxAge: number,
  sMaxAge: number,
  staleWhileRevalidate?: number,
): CachePolicy => ({ kind: 'public', maxAge, sMaxAge, staleWhileRevalidate });

/** Never stored anywhere: session-dependent, personal, side effects, or must be fresh. */
export const PRIVATE: CachePolicy = { kind: 'private' };

/**
 * The cache policy of every GET route, by the URL pattern Fastify registers (prefix included).
 * A pattern ending in `*` covers every route under it. A route's own `config.cache` wins.
 * docs/operations.md#http-caching lists the same table with the reasons.
 */
export const CACHE_POLICIES: Record<string, CachePolicy> = {
  // Catalogue reads: browsers revalidate every time (a 304 is cheap), a CDN keeps them briefly.
  // No stale-while-revalidate here: browsers honour it too, and would show a partner or a visitor
  // the answer from before their own write (a used mark, an edit) once more. nginx serves stale
  // while it updates by its own configuration (deploy/nginx.conf).
  '/api/v1/services': publicCache(0, 30),
  '/api/v1/services/:id': publicCache(0, 60),
  '/api/v1/vacancies': publicCache(0, 30),
  // The same order as the map's cross-instance staleness bound (docs/map.md).
  '/api/v1/map': publicCache(0, 30),
  // The offline gazetteer never changes between deploys; a Nominatim answer hardly does.
  '/api/v1/geocode': publicCache(3600, 86_400, 86_400),
  '/api/v1/geocode/suggest': publicCache(3600, 86_400, 86_400),
  // Runtime configuration: changes only with a deploy.
  '/env': publicCache(60, 300, 3600),
  '/sitemap.xml': publicCache(3600, 3600, 86_400),
  '/sitemap-pages.xml': publicCache(3600, 3600, 86_400),
  '/sitemap-services-:page.xml': publicCache(3600, 3600, 86_400),
  '/robots.txt': publicCache(3600, 86_400, 86_400),
  // Open data (docs/open-data.md): scripts and data portals fetch it now and then; the ETag
  // follows the data, so a revalidation is a 304 until something changes.
  '/api/v1/open-data/services.csv': publicCache(300, 3600),
  '/api/v1/open-data/services.geojson': publicCache(300, 3600),
  // Feed readers poll every few minutes to hours; a new service can wait that long.
  '/feeds/services.atom': publicCache(300, 900),
  '/feeds/vacancies.atom': publicCache(300, 900),
  // Session-dependent or personal.
  '/api/v1/auth/check': PRIVATE,
  '/api/v1/auth/logout': PRIVATE,
  '/api/v1/account': PRIVATE,
  '/api/v1/account/*': PRIVATE,
  '/api/v1/my/*': PRIVATE,
  '/api/v1/admin/*': PRIVATE,
  // A side effect (unsubscribes) and a secret in the query.
  '/api/v1/unsubscribe': PRIVATE,
  // Operations: always fresh.
  '/healthz': PRIVATE,
  '/readyz': PRIVATE,
  '/metrics': PRIVATE,
};

/**
 * GET routes that serve files and set their own Cache-Control (the OpenAPI UI's assets, the
 * widgets' bundles); the policy check leaves them out, and every file route of @fastify/static
 * (the built site's files).
 */
export const STATIC_ROUTE_PREFIXES = ['/api/docs', '/widgets/'];

function policyFor(url: string): CachePolicy | undefined {
  const exact = CACHE_POLICIES[url];
  if (exact) return exact;
  for (const [pattern, policy] of Object.entries(CACHE_POLICIES)) {
    if (pattern.endsWith('*') && url.startsWith(pattern.slice(0, -1))) return policy;
  }
  return undefined;
}

export function cacheControlOf(policy: CachePolicy): string {
  if (policy.kind === 'private') return 'private, no-store';
  const parts = ['public', `max-age=${policy.maxAge}`, `s-maxage=${policy.sMaxAge}`];
  if (policy.staleWhileRevalidate) {
    parts.push(`stale-while-revalidate=${policy.staleWhileRevalidate}`);
  }
  return parts.join(', ');
}

/** Weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`; a list or `*` is understood. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === wanted);
}

/**
 * For handlers that know their version before doing the work (the map): sets the ETag and tells
 * whether the client already has it, so the handler can answer `reply.code(304).send()` at once.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  return etagMatches(request.headers['if-none-match'], etag);
}

const addVary = (reply: FastifyReply, field: string) => {
  const current = reply.getHeader('vary');
  const list = current
    ? String(current)
        .split(',')
        .map((v) => v.trim())
    : [];
  if (list.includes('*') || list.some((v) => v.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...list, field].join(', '));
};

/**
 * HTTP caching of every route in one place. Each GET route gets its policy from its config or
 * from CACHE_POLICIES when it is registered; a route with a public policy is public for CORS too
 * (any origin, no credentials). On send:
 * - public policy and 200: Cache-Control from the policy, `Vary: Origin, accept-encoding` (CORS
 *   answers differ by origin; compression by Accept-Encoding), an ETag (the handler's, or a
 *   strong hash of the uncompressed body: compression runs after this hook, so every encoding
 *   has the same tag) and 304 on a matching If-None-Match;
 * - private policy, any other status, or an answer that sets a cookie: `private, no-store`, never
 *   a shared-cache header;
 * - state-changing methods without a Cache-Control: `no-store`.
 */
export const httpCachePlugin = fp(async (app: FastifyInstance) => {
  const uncached: string[] = [];
  app.decorate('uncachedGetRoutes', uncached);

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    // HEAD routes (Fastify adds one per GET) get the same policy as their GET.
    const isGet = methods.includes('GET');
    if (!isGet && !methods.includes('HEAD')) return;
    const policy = route.config?.cache ?? policyFor(route.url);
    if (!policy) {
      // A file of @fastify/static (the built site: one route per file) sets its own header.
      const file = (route.config as { file?: unknown } | undefined)?.file !== undefined;
      if (isGet && !file && !STATIC_ROUTE_PREFIXES.some((p) => route.url.startsWith(p))) {
        uncached.push(route.url);
      }
      return;
    }
    route.config = {
      ...route.config,
      cache: policy,
      ...(policy.kind === 'public' ? { public: true } : {}),
    };
  });

  app.addHook('onReady', async () => {
    if (uncached.length) {
      app.log.warn({ routes: uncached }, 'GET routes without a cache policy (CACHE_POLICIES)');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const policy = request.routeOptions.config?.cache;
    if (!policy) {
      if (
        request.method !== 'GET' &&
        request.method !== 'HEAD' &&
        !reply.hasHeader('cache-control')
      ) {
        reply.header('cache-control', 'no-store');
      }
      return payload;
    }
    const status = reply.statusCode;
    const cacheable =
      policy.kind === 'public' &&
      (status === 200 || status === 304) &&
      !reply.hasHeader('set-cookie');
    if (!cacheable) {
      reply.header('cache-control', cacheControlOf(PRIVATE));
      reply.removeHeader('etag');
      return payload;
    }
    reply.header('cache-control', cacheControlOf(policy));
    addVary(reply, 'Origin');
    // Whether or not this answer is compressed (the compress plugin, app.ts, runs after this
    // hook and skips answers under 1 KB), a shared cache must keep the encodings apart, and a
    // 304 carries the same Vary as its 200. Lower case: the compress plugin looks for it so.
    addVary(reply, 'accept-encoding');
    if (status === 304) return payload;
    let etag = reply.getHeader('etag') as string | undefined;
    if (!etag) {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
      reply.header('etag', etag);
    }
    if (etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
});
