import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Env } from '../../../env.js';
import { compressOptions } from '../../../lib/compression.js';
import {
  openDataEtag,
  openDataStream,
  openDataVersion,
  type OpenDataFormat,
} from '../../../openData/services.js';
import { notModified } from '../../../plugins/http-cache.js';

const TYPES: Record<OpenDataFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  geojson: 'application/geo+json',
};

/**
 * `GET open-data/services.csv` and `GET open-data/services.geojson`: the catalogue's open data
 * (docs/open-data.md), streamed, with an ETag from the catalogue version (one row read).
 */
export async function openDataRoutes(app: FastifyInstance, { env }: { env: Env }) {
  const handler =
    (format: OpenDataFormat) => async (request: FastifyRequest, reply: FastifyReply) => {
      const version = await openDataVersion(app.db);
      // Cache-Control comes from the route's policy (plugins/http-cache.ts).
      if (notModified(request, reply, openDataEtag(format, version, env.PUBLIC_URL))) {
        return reply.code(304).send();
      }
      reply.type(TYPES[format]);
      if (format === 'csv') {
        reply.header('content-disposition', 'attachment; filename="poruch-services.csv"');
      }
      if (request.method === 'HEAD') return reply.send('');
      return reply.send(openDataStream(app.db, format, env.PUBLIC_URL));
    };

  const description = (what: string) =>
    `${what} Every publicly visible service with its public fields (never its owner's data), ` +
    'under the Open Database License 1.0 (docs/open-data.md). Streamed in id order; the ETag ' +
    'follows the data, so a client with the current copy gets 304.';

  app.get(
    '/open-data/services.csv',
    {
      compress: compressOptions('fast'),
      schema: {
        tags: ['open data'],
        summary: 'The catalogue as CSV',
        description: description(
          'UTF-8 CSV (RFC 4180) with a header row; text cells are quoted, and one starting ' +
            'with = + - @, a tab or a carriage return is prefixed with an apostrophe.',
        ),
      },
    },
    handler('csv'),
  );

  app.get(
    '/open-data/services.geojson',
    {
      compress: compressOptions('fast'),
      schema: {
        tags: ['open data'],
        summary: 'The catalogue as GeoJSON',
        description: description(
          'A GeoJSON FeatureCollection (RFC 7946) with a top-level `license` member; each ' +
            'service is a Feature with a Point (null when it has no public position).',
        ),
      },
    },
    handler('geojson'),
  );
}
