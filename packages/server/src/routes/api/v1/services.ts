import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import {
  PoruchError,
  idParamsSchema,
  serviceProfileSchema,
  servicePageSchema,
  serviceSearchQuerySchema,
  usedMarkResultSchema,
  type ServicePage,
  type ServiceProfile,
  usedMarkSchema,
} from '@poruch/core';
import { services } from '../../../db/schema.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';
import { findPublicProfile } from '../../../repositories/catalogue.js';
import { ProfilePageCache } from '../../../plugins/profilePageCache.js';
import { jsonBody, type JsonBody } from '../../../search/cache.js';
import { searchServicesJson } from '../../../search/index.js';
import { publiclyVisible } from '../../../search/visibility.js';

/** Profiles kept in memory (about 1 KB of JSON each). */
const PROFILES_KEPT = 2000;

/** Public catalogue: search, profile and "I have used this service". */
export async function serviceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['services'];
  // Profiles as response bytes, keyed by id, kept until a write changes that service or its
  // vacancies (see ProfilePageCache). Only found profiles are kept.
  const profiles = new ProfilePageCache<JsonBody>((id) => id, PROFILES_KEPT);

  app.get(
    '/services',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Search approved services',
        description:
          'Typo-tolerant search in Cyrillic and Latin over name, descriptions, address, city and category, with filters, pagination and the total.',
        querystring: serviceSearchQuerySchema,
        response: { 200: servicePageSchema },
      },
    },
    // The page's JSON and ETag come from the search cache (checked against the response schema
    // when the page was computed), so a repeated query is not serialised again.
    async (request, reply) => {
      const { body, etag } = await searchServicesJson(app.db, request.query);
      return reply
        .type('application/json; charset=utf-8')
        .header('etag', etag)
        .send(body as unknown as ServicePage); // already JSON: Fastify sends the bytes as they are
    },
  );

  app.get(
    '/services/:id',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Public profile of an approved service',
        params: idParamsSchema,
        response: { 200: serviceProfileSchema },
      },
    },
    // The JSON and ETag are computed once per profile and write (see `profiles`).
    async (request, reply) => {
      const id = request.params.id.toLowerCase();
      const page = await profiles.get(app.db, id, async () => {
        const profile = await findPublicProfile(app.db, id);
        return profile && jsonBody(JSON.stringify(serviceProfileSchema.parse(profile)));
      });
      if (!page) throw new PoruchError(404, 'resource_was_not_found');
      return reply
        .type('application/json; charset=utf-8')
        .header('etag', page.etag)
        .send(page.body as unknown as ServiceProfile);
    },
  );

  app.post(
    '/services/:id/used',
    {
      // Anonymous and cookie-less, so embedded widgets on other sites can post it.
      config: { public: true, csrf: false },
      preHandler: rateLimit(app.rateLimitStore, [
        { name: 'used-ip', max: 30, windowMs: 60 * 60_000, key: byIp },
      ]),
      schema: {
        tags,
        summary: 'Mark "I have used this service" (once per browser)',
        params: idParamsSchema,
        body: usedMarkSchema,
        response: { 200: usedMarkResultSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      // One statement (migration 0020): the mark, and the count when it is new. The count's
      // update skips the search triggers that work on anything but the count.
      const result = await app.db.execute(sql`
        SELECT m.n, m.counted FROM ${services},
          LATERAL poruch_mark_used(${services.id}, ${request.body.browserId}) m
        WHERE ${services.id} = ${id} AND ${publiclyVisible()}`);
      const [row] = (result as unknown as { rows: { n: number | null; counted: boolean }[] }).rows;
      // Not visible, or deleted by its owner meanwhile: as if it had never been found.
      if (!row || row.n === null) throw new PoruchError(404, 'resource_was_not_found');
      return { usedCount: row.n, counted: row.counted };
    },
  );
}
