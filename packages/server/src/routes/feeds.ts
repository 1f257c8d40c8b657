import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, desc, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_LOCALE,
  HREFLANG,
  categoryLabelKey,
  countryNameKey,
  createI18n,
  feedQuerySchema,
  localeUrl,
  translator,
  type FeedQuery,
  type LocaleCode,
  type Translate,
} from '@poruch/core';
import { services, vacancies } from '../db/schema.js';
import type { Env } from '../env.js';
import { publiclyVisible, vacancyPubliclyVisible } from '../search/visibility.js';

/** Entries per feed: the newest. */
export const FEED_ENTRIES = 50;
/** Longest summary, in characters (the description is cut at a word). */
const SUMMARY_MAX = 400;

const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/**
 * Text for XML content or a quoted attribute: the five special characters escaped, and the
 * characters XML 1.0 does not allow (C0 controls other than tab and newlines, U+FFFE, U+FFFF,
 * lone surrogates) dropped, with the C1 controls, which it only discourages.
 */
export function xmlText(value: string): string {
  return (
    value
      // Cc: U+0000–U+001F and U+007F–U+009F; with the u flag, Cs is a surrogate without its pair.
      .replace(/(?![\t\n\r])\p{Cc}|\p{Cs}|[\uFFFE\uFFFF]/gu, '')
      .replace(
        /[<>&'"]/g,
        (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
      )
  );
}

/** A description cut to SUMMARY_MAX characters at a word, with an ellipsis when cut. */
function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SUMMARY_MAX) return flat;
  const cut = flat.slice(0, SUMMARY_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

interface Entry {
  id: string;
  title: string;
  link: string;
  summary: string;
  published: Date;
  updated: Date;
}

const translators = new Map<LocaleCode, Translate>();
const translatorOf = (locale: LocaleCode) => {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = translator(createI18n(locale))));
  return t;
};

/** The feed's document (RFC 4287): newest entries first. */
function atom(feed: {
  id: string;
  title: string;
  subtitle: string;
  self: string;
  site: string;
  locale: LocaleCode;
  author: string;
  entries: Entry[];
}): string {
  // The newest change of any entry; the epoch for an empty feed (a fixed value keeps the ETag).
  const updated = new Date(Math.max(0, ...feed.entries.map((e) => e.updated.getTime())));
  const entries = feed.entries.map(
    (e) =>
      `<entry><id>${xmlText(e.id)}</id><title type="text">${xmlText(e.title)}</title>` +
      `<link rel="alternate" type="text/html" href="${xmlText(e.link)}"/>` +
      `<published>${e.published.toISOString()}</published><updated>${e.updated.toISOString()}</updated>` +
      `<summary type="text">${xmlText(e.summary)}</summary></entry>`,
  );
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${HREFLANG[feed.locale]}">` +
    `<id>${xmlText(feed.id)}</id><title type="text">${xmlText(feed.title)}</title>` +
    `<subtitle type="text">${xmlText(feed.subtitle)}</subtitle>` +
    `<updated>${updated.toISOString()}</updated>` +
    `<author><name>${xmlText(feed.author)}</name><uri>${xmlText(feed.site)}</uri></author>` +
    `<link rel="self" type="application/atom+xml" href="${xmlText(feed.self)}"/>` +
    `<link rel="alternate" type="text/html" href="${xmlText(feed.site)}"/>` +
    `\n${entries.join('\n')}\n</feed>\n`
  );
}

/**
 * `GET /feeds/services.atom` and `GET /feeds/vacancies.atom`: Atom feeds of the newest publicly
 * visible services and open vacancies, filtered by country and category, in the language asked
 * (docs/open-data.md). Their ETag hashes the document (plugins/http-cache.ts), which holds no
 * clock reading, so it changes only with the entries.
 */
export async function feedRoutes(fastify: FastifyInstance, { env }: { env: Env }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = env.PUBLIC_URL;

  /** The feed's own URL: its path and the filters asked, in a fixed order. */
  const selfUrl = (path: string, query: FeedQuery) => {
    const params = new URLSearchParams();
    for (const key of ['country', 'category', 'lang'] as const) {
      if (query[key]) params.set(key, query[key]);
    }
    const search = params.toString();
    return `${base}${path}${search ? `?${search}` : ''}`;
  };

  /** A page of the site: in the feed's language when one was asked (`?lang=`). */
  const pageLink = (query: FeedQuery) => (path: string) =>
    query.lang ? localeUrl(`${base}${path}`, query.lang) : `${base}${path}`;

  /** The feed's title: its name, then the country and category asked. */
  const titleOf = (t: Translate, name: string, query: FeedQuery) =>
    [
      t(name),
      query.country && t(countryNameKey(query.country)),
      query.category && t(categoryLabelKey(query.category)),
    ]
      .filter(Boolean)
      .join(' · ');

  const placeOf = (t: Translate, country: string, city: string, online: boolean) =>
    [online ? t('feeds.online') : city, t(countryNameKey(country))].filter(Boolean).join(', ');

  /** The feed's language, its translator and its links to the site's pages. */
  const contextOf = (query: FeedQuery) => {
    const locale = query.lang ?? DEFAULT_LOCALE;
    return { locale, t: translatorOf(locale), link: pageLink(query) };
  };

  /** The feed of `kind` with its entries, for the filters of `query`. */
  const document = (kind: 'services' | 'vacancies', query: FeedQuery, entries: Entry[]) => {
    const { locale, t, link } = contextOf(query);
    const self = selfUrl(`/feeds/${kind}.atom`, query);
    return atom({
      id: self,
      title: titleOf(t, `feeds.${kind}_title`, query),
      subtitle: t(`feeds.${kind}_subtitle`),
      self,
      site: link('/'),
      locale,
      author: t('app.name'),
      entries,
    });
  };

  const schema = (summary: string, description: string) => ({
    tags: ['feeds'],
    summary,
    description:
      `${description} Newest first, at most ${FEED_ENTRIES}. Titles and summaries in \`lang\` ` +
      '(Ukrainian by default). An unknown country or category answers 400.',
    querystring: feedQuerySchema,
    produces: ['application/atom+xml'],
  });

  app.get(
    '/feeds/services.atom',
    {
      schema: schema(
        'Atom feed of new services',
        'The newest publicly visible services, by when they were added.',
      ),
    },
    async (request, reply) => {
      const query = request.query;
      const { locale, t, link } = contextOf(query);
      const filters: (SQL | undefined)[] = [
        publiclyVisible(),
        query.country ? eq(services.countryCode, query.country) : undefined,
        query.category ? eq(services.category, query.category) : undefined,
      ];
      const rows = await app.db
        .select({
          id: services.id,
          name: services.name,
          category: services.category,
          countryCode: services.countryCode,
          city: sql<string>`coalesce(${services.addressDetails}->>'city', '')`,
          isOnline: services.isOnline,
          descriptionUa: services.descriptionUa,
          descriptionOther: services.descriptionOther,
          createdAt: services.createdAt,
          updatedAt: services.updatedAt,
        })
        .from(services)
        .where(and(...filters))
        .orderBy(desc(services.createdAt), asc(services.id))
        .limit(FEED_ENTRIES);
      const body = document(
        'services',
        query,
        rows.map((r) => {
          // The description in the feed's language when the partner wrote one, else the other.
          const own = locale === 'ua' ? r.descriptionUa : r.descriptionOther;
          const description = own || r.descriptionUa || r.descriptionOther;
          const head = [
            r.category && t(categoryLabelKey(r.category)),
            placeOf(t, r.countryCode, r.city, r.isOnline),
          ]
            .filter(Boolean)
            .join(' · ');
          return {
            id: `urn:uuid:${r.id}`,
            title: r.name,
            link: link(`/services/${r.id}`),
            summary: description ? `${head}. ${shorten(description)}` : head,
            published: r.createdAt,
            updated: r.updatedAt,
          };
        }),
      );
      return reply.type(ATOM_TYPE).send(body);
    },
  );

  app.get(
    '/feeds/vacancies.atom',
    {
      schema: schema(
        'Atom feed of open vacancies',
        'The newest open vacancies of publicly visible services.',
      ),
    },
    async (request, reply) => {
      const query = request.query;
      const { t, link } = contextOf(query);
      // The service's country and category are copied onto the vacancy (migration 0004).
      const filters: (SQL | undefined)[] = [
        vacancyPubliclyVisible(),
        eq(vacancies.isOpen, true),
        query.country ? sql`${vacancies}.service_country = ${query.country}` : undefined,
        query.category ? sql`${vacancies}.service_category = ${query.category}` : undefined,
      ];
      const rows = await app.db
        .select({
          id: vacancies.id,
          name: vacancies.name,
          salary: vacancies.salary,
          experience: vacancies.experience,
          requirements: vacancies.requirements,
          description: vacancies.description,
          createdAt: vacancies.createdAt,
          updatedAt: vacancies.updatedAt,
          serviceId: services.id,
          serviceName: services.name,
          countryCode: services.countryCode,
          city: sql<string>`coalesce(${services.addressDetails}->>'city', '')`,
          isOnline: services.isOnline,
        })
        .from(vacancies)
        .innerJoin(services, eq(services.id, vacancies.serviceId))
        .where(and(...filters))
        .orderBy(desc(vacancies.createdAt), asc(vacancies.id))
        .limit(FEED_ENTRIES);
      const body = document(
        'vacancies',
        query,
        rows.map((r) => {
          const facts = [
            placeOf(t, r.countryCode, r.city, r.isOnline),
            r.salary && t('feeds.salary', { salary: r.salary }),
            t('feeds.experience', { experience: t(`experience.${r.experience}`) }),
          ]
            .filter(Boolean)
            .join(' · ');
          const text = shorten([r.description, r.requirements].filter(Boolean).join(' '));
          return {
            id: `urn:uuid:${r.id}`,
            title: t('feeds.vacancy_title', { vacancy: r.name, service: r.serviceName }),
            link: link(`/services/${r.serviceId}/vacancies`),
            summary: text ? `${facts}. ${text}` : facts,
            published: r.createdAt,
            updated: r.updatedAt,
          };
        }),
      );
      return reply.type(ATOM_TYPE).send(body);
    },
  );
}
