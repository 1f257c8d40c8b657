import type { FastifyInstance } from 'fastify';
import { and, asc, count, gt } from 'drizzle-orm';
import { LOCALE_CODES, localeAlternates, localeUrl } from '@poruch/core';
import { services } from '../db/schema.js';
import type { Env } from '../env.js';
import { publiclyVisible } from '../search/visibility.js';

/** The site's public pages besides the service profiles. */
const STATIC_PATHS = ['/', '/about', '/support', '/store', '/privacy-policy'] as const;

/**
 * Services per sitemap file. Each page is listed once per language (`?lang=`), and the protocol
 * allows 50,000 URLs per file: a margin leaves room for the static pages.
 */
export const SITEMAP_PAGE_SIZE = 22_000;

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/**
 * A page's entries: one per language version (`?lang=ua`, `?lang=en_GB`), each naming all of them
 * and the plain URL (x-default, served in the visitor's language) as `xhtml:link` alternates.
 */
const url = (page: string, lastmod?: Date) => {
  const alternates = localeAlternates(page)
    .map(
      (a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${escapeXml(a.href)}"/>`,
    )
    .join('');
  const mod = lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : '';
  return LOCALE_CODES.map(
    (code) => `<url><loc>${escapeXml(localeUrl(page, code))}</loc>${mod}${alternates}</url>`,
  ).join('\n');
};

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const URLSET_NS = `${NS} xmlns:xhtml="http://www.w3.org/1999/xhtml"`;

/**
 * `GET /sitemap.xml`: the public pages and the profile of every approved service. Above
 * SITEMAP_PAGE_SIZE services it becomes a sitemap index of `/sitemap-services-<n>.xml` files,
 * read in id order with keyset paging. `GET /robots.txt` points at it.
 */
export async function sitemapRoutes(app: FastifyInstance, { env }: { env: Env }) {
  const base = env.PUBLIC_URL;

  const approvedCount = async () =>
    (await app.db.select({ n: count() }).from(services).where(publiclyVisible()))[0]?.n ?? 0;

  /** One page of approved services, in id order, from the n-th page. */
  const servicePage = async (page: number) => {
    let after: string | undefined;
    let rows: { id: string; updatedAt: Date }[] = [];
    for (let p = 0; p <= page; p++) {
      rows = await app.db
        .select({ id: services.id, updatedAt: services.updatedAt })
        .from(services)
        .where(after ? and(publiclyVisible(), gt(services.id, after)) : publiclyVisible())
        .orderBy(asc(services.id))
        .limit(SITEMAP_PAGE_SIZE);
      after = rows.at(-1)?.id;
      if (!after) break;
    }
    return rows;
  };

  const urlset = (rows: { id: string; updatedAt: Date }[], withStatic: boolean) =>
    `${XML_HEAD}<urlset ${URLSET_NS}>\n` +
    (withStatic ? STATIC_PATHS.map((p) => url(`${base}${p}`)).join('\n') + '\n' : '') +
    rows.map((r) => url(`${base}/services/${r.id}`, r.updatedAt)).join('\n') +
    '\n</urlset>\n';

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const total = await approvedCount();
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
    if (total <= SITEMAP_PAGE_SIZE) return urlset(await servicePage(0), true);
    const pages = Math.ceil(total / SITEMAP_PAGE_SIZE);
    const entries = [`<sitemap><loc>${escapeXml(`${base}/sitemap-pages.xml`)}</loc></sitemap>`];
    for (let i = 0; i < pages; i++)
      entries.push(
        `<sitemap><loc>${escapeXml(`${base}/sitemap-services-${i}.xml`)}</loc></sitemap>`,
      );
    return `${XML_HEAD}<sitemapindex ${NS}>\n${entries.join('\n')}\n</sitemapindex>\n`;
  });

  app.get('/sitemap-pages.xml', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return urlset([], true);
  });

  app.get<{ Params: { page: string } }>(
    '/sitemap-services-:page.xml',
    { schema: { hide: true } },
    async (request, reply) => {
      const page = Number.parseInt(request.params.page, 10);
      if (!Number.isInteger(page) || page < 0 || page > 1000) return reply.callNotFound();
      reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
      return urlset(await servicePage(page), false);
    },
  );

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/plain; charset=utf-8');
    return `User-agent: *\nAllow: /\nDisallow: /dashboard\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`;
  });
}
