import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runtimeConfigSchema } from '@poruch/core';
import type { Env } from '../env.js';
import { SERVER_VERSION } from '../version.js';

/** `GET /env`: the runtime configuration the site fetches at start. */
export async function envRoutes(app: FastifyInstance, { env }: { env: Env }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/env',
    {
      config: { public: true },
      schema: {
        tags: ['config'],
        summary: 'Runtime configuration',
        response: { 200: runtimeConfigSchema },
      },
    },
    async () => ({
      analyticsId: env.ANALYTICS_ID ?? null,
      tagManagerId: env.TAG_MANAGER_ID ?? null,
      errorReporting: { enabled: env.ERROR_REPORTING, version: SERVER_VERSION },
      vapidPublicKey: app.mail.vapid.publicKey,
      apiBase: `${env.PUBLIC_URL}/api/v1/`,
      tileUrl: env.TILE_URL,
      widgets: app.widgetsRelease
        ? {
            ...app.widgetsRelease,
            loader: `${env.PUBLIC_URL}/widgets/${app.widgetsRelease.version}/poruch.js`,
          }
        : null,
    }),
  );
}
