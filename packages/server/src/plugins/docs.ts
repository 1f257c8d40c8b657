import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { SERVER_VERSION } from '../version.js';

/** The OpenAPI document, generated from the routes' zod schemas, browsable at /api/docs. */
export const docsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Poruch API',
        description:
          'Directory and map of services run by Ukrainians abroad. Every error body carries a key of the error catalogue in `errors.message`. State-changing credentialed calls carry the `x-xsrf-token` header with the value of the `XSRF-TOKEN` cookie.',
        version: SERVER_VERSION,
      },
      servers: [],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
});
