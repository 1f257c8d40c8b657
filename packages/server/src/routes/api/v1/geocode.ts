import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { geocodeQuerySchema, geocodeResultSchema, geocodeSuggestionsSchema } from '@poruch/core';
import type { Env } from '../../../env.js';
import { createGeocoder } from '../../../geocoding/index.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';

/** Geocoding requests per IP per minute: enough for typing and picking, not for bulk lookups. */
const GEOCODE_PER_MINUTE = 60;
/**
 * Suggestions per IP per minute: the forms ask at most once per pause in typing (300 ms), so a
 * long address typed at speed stays well under it.
 */
const SUGGEST_PER_MINUTE = 120;

/** `GET geocode`: address to candidates; `GET geocode/suggest`: places while the user types. */
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

  app.get(
    '/geocode/suggest',
    {
      config: { public: true },
      preHandler: rateLimit(app.rateLimitStore, [
        { name: 'geocode-suggest-ip', max: SUGGEST_PER_MINUTE, windowMs: 60_000, key: byIp },
      ]),
      schema: {
        tags: ['geocode'],
        summary: 'Places for a partly typed address',
        description:
          'Up to six places whose name begins with the last part of the address (after the last ' +
          'comma), best first, each a complete candidate: picking one needs no second lookup. ' +
          "None when nothing fits yet. With GEOCODER_URL: that server's answer for the text so far.",
        querystring: geocodeQuerySchema,
        response: { 200: geocodeSuggestionsSchema },
      },
    },
    async (request) => ({
      suggestions: await geocoder.suggest(request.query.address, request.query.country),
    }),
  );
}
