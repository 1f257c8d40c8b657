import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { mapQuerySchema, mapResultSchema } from '@poruch/core';
import { closeMapCache, mapCacheOf, textMatches } from '../../../map/index.js';
import { notModified } from '../../../plugins/http-cache.js';
import { wrapBBoxParam } from '../../../search/geo.js';

/** `GET map`: clusters and points of the visible services in a bbox at a zoom. */
export async function mapRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const cache = mapCacheOf(app);
  app.addHook('onClose', async () => closeMapCache(app));

  app.get(
    '/map',
    {
      config: { public: true },
      preValidation: async (request) => {
        const query = request.query as Record<string, unknown>;
        // Leaflet gives longitudes beyond ±180 once the world has wrapped; the schema takes a
        // box across the antimeridian as minLng > maxLng.
        if (typeof query.bbox === 'string') query.bbox = wrapBBoxParam(query.bbox);
      },
      schema: {
        tags: ['map'],
        summary: 'Clusters and points in a bounding box',
        description:
          'Approved services shown on the map, clustered on the server: at most about 500 items per answer at any zoom ' +
          '(the zoom steps down when more would come back; the header X-Map-Zoom says which zoom answered). ' +
          'A bbox crossing the antimeridian has minLng > maxLng. With `q`, only the services the services search ' +
          'matches for the same q and filters (at most its first 1000 matches). ' +
          'Answers carry an ETag and may be up to about a second stale across instances.',
        querystring: mapQuerySchema,
        response: { 200: mapResultSchema },
      },
    },
    async (request, reply) => {
      const { bbox, zoom, country, category, online, q } = request.query;
      const filter = { country, category, online };
      const ids = await textMatches(app.db, filter, q);
      const { index, version } = ids ? await cache.matching(filter, ids) : await cache.get(filter);
      const etag = `W/"${createHash('sha1')
        .update(`${version}|${request.url}`)
        .digest('base64url')
        .slice(0, 22)}"`;
      // Cache-Control comes from the route's policy (plugins/http-cache.ts: browsers revalidate
      // every time, a CDN keeps an answer 30 s, the cross-instance staleness bound, docs/map.md).
      // The version-based ETag is known before the query, so a match skips the work.
      if (notModified(request, reply as FastifyReply, etag)) {
        return (reply as FastifyReply).code(304).send();
      }
      const result = index.query(bbox, zoom);
      reply.header('x-map-zoom', String(result.zoom));
      return { clusters: result.clusters, points: result.points };
    },
  );
}
