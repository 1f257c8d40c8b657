import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  PoruchError,
  jsonLdScriptText,
  localeAlternates,
  localeFromCookie,
  localeFromQuery,
  negotiateLocale,
  profileJsonLd,
  type LocaleCode,
} from '@poruch/core';
import type { Env } from '../env.js';
import { findPublicProfile } from '../repositories/catalogue.js';
import { escapeHtml, renderProfileFirstScreen } from './profileFirstScreen.js';
import { ProfilePageCache } from './profilePageCache.js';
import { withAcceptEncoding } from './widgets.js';

const API_PATHS = /^\/(api|env|healthz|readyz|metrics)(\/|$|\?)/;

/** Cache-Control of content-hashed files: a new build writes new names, so they never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of everything else (pages, sw.js, manifest, icons): ask every time (ETag, 304). */
export const REVALIDATE = 'no-cache';

/** One prerendered page, kept in memory with its compressed forms and validator. */
interface Page {
  body: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
  /** Built for one request (a profile's first screen): compressed at a fast level. */
  fast?: boolean;
}

/** A route of the site's dist/pages/routes.json (scripts/prerender.mjs). */
interface PageRoute {
  name: string;
  path: string;
  /** The page in Ukrainian. */
  file: string;
  /** The page in each language. */
  files?: Partial<Record<LocaleCode, string>>;
}

/** What a page varies on besides the encoding: its language comes from these (pageLocale). */
const PAGE_VARY = ['Accept-Language', 'Cookie'];

/**
 * The language a page is served in: the `?lang=` of its URL, else the `locale` cookie (the choice
 * the language switcher stores), else the best of `Accept-Language`, else Ukrainian. The app
 * starts in the same one (core's startLocale), so the first screen never changes language.
 */
export function pageLocale(request: FastifyRequest): LocaleCode {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  return (
    localeFromQuery(query) ??
    localeFromCookie(request.headers.cookie) ??
    negotiateLocale(request.headers['accept-language'])
  );
}

/** `<link rel="alternate" hreflang>` of each language version of a page (an absolute URL). */
const alternateLinks = (url: string) =>
  localeAlternates(url)
    .map((a) => `<link rel="alternate" hreflang="${a.hreflang}" href="${escapeHtml(a.href)}">`)
    .join('');

/**
 * The route pattern syntax of the site's router (packages/site/src/router/match.ts): literal
 * segments, `:name`, a trailing optional `:name?`, and a final `*`.
 */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  for (let i = 0; i < want.length; i++) {
    const seg = want[i]!;
    if (seg === '*' && i === want.length - 1) return true;
    if (seg.startsWith(':')) {
      if (have[i] === undefined && !seg.endsWith('?')) return false;
      continue;
    }
    if (have[i] !== seg) return false;
  }
  return have.length <= want.length;
}

/** The encoding to send for an Accept-Encoding header: br, then gzip, else none. */
function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const offered = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/**
 * Serves the built site at / in production:
 * - files under the site folder with @fastify/static, sending the `.br` / `.gz` the build wrote
 *   beside them when the browser accepts one (`Vary: Accept-Encoding`); content-hashed names
 *   are immutable for a year, the rest revalidate every time (ETag / Last-Modified, 304); any
 *   origin may read them without credentials (CORS `*`);
 * - a page path gets the route's prerendered page (dist/pages/<route>.html: its first screen,
 *   inlined CSS, preloads of its chunks), or index.html for a path no route knows; pages are
 *   held in memory, compressed once, with a strong ETag, `no-cache` and 304 on If-None-Match.
 */
export const sitePlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const index = path.join(env.SITE_DIR, 'index.html');
  const serveSite = env.NODE_ENV === 'production' && fs.existsSync(index);
  const routesFile = path.join(env.SITE_DIR, 'pages', 'routes.json');
  const routes: PageRoute[] = [];
  if (serveSite) {
    await app.register(fastifyStatic, {
      root: env.SITE_DIR,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside its text files (packages/site/vite.config.ts).
      preCompressed: true,
      setHeaders: (reply, file) => {
        reply.header(
          'cache-control',
          // Vite writes only content-hashed names under assets/ (public/ files go to the root).
          file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : REVALIDATE,
        );
        // Public files: any origin may read them, never with credentials (widgets on other
        // sites ask for flags as CORS requests without cookies, `<img crossorigin>`).
        reply.header('access-control-allow-origin', '*');
        reply.removeHeader('access-control-allow-credentials');
      },
    });
    if (fs.existsSync(routesFile)) {
      routes.push(...(JSON.parse(fs.readFileSync(routesFile, 'utf8')) as PageRoute[]));
    }
  } else if (env.NODE_ENV === 'production') {
    app.log.warn({ siteDir: env.SITE_DIR }, '[poruch] built site not found; run pnpm build');
  }

  const pages = new Map<string, Page>();
  /**
   * The page (read and compressed on first use) of a file relative to the site folder; `head` is
   * added to its head (the language versions of a route with one path).
   */
  const pageOf = (file: string, head = ''): Page => {
    let page = pages.get(file);
    if (!page) {
      const raw = fs.readFileSync(path.join(env.SITE_DIR, file));
      const body = head
        ? Buffer.from(raw.toString('utf8').replace('</head>', () => `${head}</head>`))
        : raw;
      page = {
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      };
      pages.set(file, page);
    }
    return page;
  };

  /**
   * The profile widget's shadow-root CSS and the profile screen's stylesheet, written by the
   * site's build beside the pages (scripts/prerender.mjs).
   */
  const readPagesFile = (name: string) => {
    const file = path.join(env.SITE_DIR, 'pages', name);
    return serveSite && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  };
  const shadowCss = readPagesFile('profile-shadow.css');
  const profileCss = readPagesFile('profile-page.css');
  /**
   * Profile pages, keyed by the page file and the service's id, kept until a write changes that
   * service or its vacancies (profilePageCache.ts).
   */
  const profilePages = new ProfilePageCache<Page>((key) => key.slice(key.lastIndexOf('\n') + 1));
  /** The prerendered loading state inside the page's <main>, which a profile's first screen replaces. */
  const LOADING = /<div class="page-loading"[^>]*>[\s\S]*?<\/span><\/div>/;

  /**
   * The profile page of an approved service with its first screen drawn in: a page of
   * its own per service (the ETag hashes its body, so it changes whenever anything shown of
   * the profile does: an edit, the used count, the open vacancies, a new build), compressed at a
   * fast level, and kept with its compressed forms until the next write (`profilePages`). Null
   * (the plain shell) when the id is not an approved service.
   */
  const profilePage = async (
    file: string,
    id: string,
    locale: LocaleCode,
  ): Promise<Page | null> => {
    if (
      shadowCss === null ||
      profileCss === null ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    ) {
      return null;
    }
    const shell = pageOf(file);
    const html = shell.body.toString('utf8');
    if (!LOADING.test(html)) return null;
    const key = id.toLowerCase();
    return profilePages.get(app.db, `${file}\n${key}`, async () => {
      const profile = await findPublicProfile(app.db, key);
      if (!profile) return null;
      const snippet = renderProfileFirstScreen(profile, shadowCss, locale);
      // The screen's own stylesheet (its width), inlined: the page only preloads it. The page's
      // language versions and its structured data (the app's applySeo replaces the script, by id).
      const url = `${env.PUBLIC_URL}/services/${profile.id}`;
      const head =
        `${alternateLinks(url)}<script type="application/ld+json" id="poruch-jsonld">` +
        `${jsonLdScriptText(profileJsonLd(profile, url, locale))}</script>` +
        `<style>${profileCss}</style>`;
      const body = Buffer.from(
        html.replace('</head>', () => `${head}</head>`).replace(LOADING, () => snippet),
      );
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      return { body, etag, fast: true };
    });
  };

  const sendPage = (request: FastifyRequest, reply: FastifyReply, page: Page) => {
    const vary = withAcceptEncoding(reply.getHeader('vary'));
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', REVALIDATE)
      .header(
        'vary',
        [vary, ...PAGE_VARY.filter((v) => !vary.toLowerCase().includes(v.toLowerCase()))].join(
          ', ',
        ),
      )
      .header('etag', page.etag);
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === page.etag)) {
      return reply.code(304).send();
    }
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'br') {
      page.br ??= brotliCompressSync(page.body, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: page.fast ? 5 : 11,
          [zlib.BROTLI_PARAM_SIZE_HINT]: page.body.length,
        },
      });
      return reply.header('content-encoding', 'br').send(page.br);
    }
    if (encoding === 'gzip') {
      page.gzip ??= gzipSync(page.body, { level: page.fast ? 6 : 9 });
      return reply.header('content-encoding', 'gzip').send(page.gzip);
    }
    return reply.send(page.body);
  };

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !API_PATHS.test(request.url);
    if (serveSite && wantsPage) {
      const file = request.url.split('?')[0]!;
      // A real file under the site folder (static routes only cover what existed at start).
      const candidate = path.join(env.SITE_DIR, path.normalize(file).replace(/^(\.\.[/\\])+/, ''));
      if (
        candidate.startsWith(env.SITE_DIR) &&
        file !== '/' &&
        fs.existsSync(candidate) &&
        fs.statSync(candidate).isFile()
      ) {
        return reply.sendFile(path.relative(env.SITE_DIR, candidate));
      }
      // A missing file is a 404, never a page: a module script answered with HTML fails with a
      // MIME error instead of "not found" (an old page asking for a chunk a new build removed).
      if (
        /^\/(assets|flags|icons)\//.test(file) ||
        /\.(m?js|css|map|json|svg|png|webp|ico|txt|xml|br|gz)$/.test(file)
      ) {
        throw new PoruchError(404, 'not_found');
      }
      let pathname = file;
      try {
        pathname = decodeURI(file);
      } catch {
        // A malformed escape: no route matches it, and index.html sends the visitor home.
      }
      const route = routes.find((r) => matchesPattern(r.path, pathname.replace(/\/{2,}/g, '/')));
      // The route's page in the visitor's language (each language's has its own cache entry).
      const locale = pageLocale(request);
      // A path no route knows: index.html with its head in that language.
      const routeFile = route
        ? (route.files?.[locale] ?? route.file)
        : `pages/index.${locale}.html`;
      const page = fs.existsSync(path.join(env.SITE_DIR, routeFile)) ? routeFile : 'index.html';
      // A profile's LCP is its description, which waits for GET /api/v1/services/:id: the
      // browser starts that call with the page instead of after the scripts. `crossorigin`
      // (same-origin credentials) must match the widget's call (readCredentials, site's
      // screens/profile). A header, so the cached, precompressed page stays one per route.
      const profile = route?.name === 'profile' && /^\/services\/([^/]+)/.exec(pathname);
      if (profile && profile[1]!.length <= 100) {
        reply.header(
          'link',
          `</api/v1/services/${encodeURIComponent(profile[1]!)}>; rel=preload; as=fetch; crossorigin=anonymous`,
        );
      }
      // An approved service's profile (its services tab) gets its first screen drawn in.
      const first =
        profile && route?.name === 'profile' && !/^\/services\/[^/]+\/./.test(pathname)
          ? await profilePage(page, profile[1]!, locale)
          : null;
      // A route with one path (home, about...) names its language versions in its head.
      const fixed = route && page === routeFile && !/[:*]/.test(route.path);
      return sendPage(
        request,
        reply,
        first ?? pageOf(page, fixed ? alternateLinks(`${env.PUBLIC_URL}${route.path}`) : ''),
      );
    }
    throw new PoruchError(404, 'not_found');
  });
});
