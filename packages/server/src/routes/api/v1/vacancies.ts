import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { vacancyPageSchema, vacancySearchQuerySchema, type VacancyPage } from '@poruch/core';
import { searchVacancies } from '../../../search/index.js';

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
    // The response schema checks the category keys the search returns as plain strings.
    async (request) => (await searchVacancies(app.db, request.query)) as VacancyPage,
  );
}
