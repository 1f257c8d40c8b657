import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { geocodeQuerySchema, geocodeResultSchema } from '@poruch/core';
import type { Env } from '../../../env.js';
import { createGeocoder } from '../../../geocoding/index.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';

/** Geocoding requests per IP per minute: enough for typing and picking, not for bulk lookups. */
const GEOCODE_PER_MINUTE = 60;

/** `GET geocode`: address to candidates. */
export async function geocodeRoutes(fastify: FastifyInstance, { env }: { env: Env }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const geocoder = createGeocoder(env);

  app.get(
    '/geocode',
    {
      config: { public: true },
      preHandler: rateLimit(app.rateLimitStore, [
        { name: 'geocode-ip', max: GEOCODE_PER_MINUTE, windowMs: 60_000, key: byIp },
      ]),
      schema: {
        tags: ['geocode'],
        summary: 'Address to candidates',
        description:
          'No candidate: `wrong_address`. One: `ok`. Several: `ambiguous`, to pick one from. ' +
          'Without GEOCODER_URL an offline gazetteer answers at city level (`approximate: true`). ' +
          'A geocoder that cannot be reached answers 503 `service_unavailable`.',
        querystring: geocodeQuerySchema,
        response: { 200: geocodeResultSchema },
      },
    },
    async (request) => geocoder.geocode(request.query.address, request.query.country),
  );
}
