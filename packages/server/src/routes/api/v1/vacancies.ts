import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { vacancyPageSchema, vacancySearchQuerySchema, type VacancyPage } from '@poruch/core';
import { searchVacanciesJson } from '../../../search/index.js';

/** Public vacancy search (vacancies of approved services only). */
export async function vacancyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/vacancies',
    {
      config: { public: true },
      schema: {
        tags: ['vacancies'],
        summary: 'Search vacancies',
        description: 'q, country, category, experience, open only (default) and one service.',
        querystring: vacancySearchQuerySchema,
        response: { 200: vacancyPageSchema },
      },
    },
    // The page's JSON and ETag come from the search cache (see GET /services); the schema check
    // (category keys arrive as plain strings) ran when the page was computed.
    async (request, reply) => {
      const { body, etag } = await searchVacanciesJson(app.db, request.query);
      return reply
        .type('application/json; charset=utf-8')
        .header('etag', etag)
        .send(body as unknown as VacancyPage); // already JSON: Fastify sends the bytes as they are
    },
  );
}
