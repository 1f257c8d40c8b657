import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from './db/index.js';
import type { Env } from './env.js';
import { compressOptions } from './lib/compression.js';
import { alertDigestsPlugin } from './plugins/alertDigests.js';
import { reconfirmPlugin } from './plugins/reconfirm.js';
import { authPlugin } from './plugins/auth.js';
import { databasePlugin } from './plugins/database.js';
import { docsPlugin } from './plugins/docs.js';
import { loggerOptions, requestId, type LogDestination } from './logging.js';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.js';
import { httpCachePlugin } from './plugins/http-cache.js';
import { mailPlugin } from './plugins/mail.js';
import { metricsPlugin } from './plugins/metrics.js';
import { cookiePolicyPlugin, securityPlugin } from './plugins/security.js';
import { shutdownPlugin } from './plugins/shutdown.js';
import { snapshotsPlugin } from './plugins/snapshots.js';
import { textInputPlugin } from './plugins/textInput.js';
import { sitePlugin } from './plugins/site.js';
import { widgetsPlugin } from './plugins/widgets.js';
import { accountRoutes } from './routes/api/v1/account.js';
import { adminRoutes } from './routes/api/v1/admin.js';
import { alertRoutes } from './routes/api/v1/alerts.js';
import { authRoutes } from './routes/api/v1/auth.js';
import { campaignRoutes } from './routes/api/v1/campaigns.js';
import { geocodeRoutes } from './routes/api/v1/geocode.js';
import { mapRoutes } from './routes/api/v1/map.js';
import { myRoutes } from './routes/api/v1/my.js';
import { reconfirmRoutes } from './routes/api/v1/reconfirm.js';
import { openDataRoutes } from './routes/api/v1/openData.js';
import { duplicateRoutes } from './routes/api/v1/duplicates.js';
import { reportRoutes } from './routes/api/v1/reports.js';
import { serviceRoutes } from './routes/api/v1/services.js';
import { unsubscribeRoutes } from './routes/api/v1/unsubscribe.js';
import { vacancyRoutes } from './routes/api/v1/vacancies.js';
import { envRoutes } from './routes/env.js';
import { feedRoutes } from './routes/feeds.js';
import { healthRoutes } from './routes/health.js';
import { sitemapRoutes } from './routes/sitemap.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route as registered (method, full url, schema, config): the route table that the
     * security tests generate their authorisation, CSRF and fuzzing cases from.
     */
    routeTable: RouteOptions[];
  }
}

export interface AppOptions {
  env: Env;
  database: Database;
  /** Where log lines go (scrubbed first, see logging.ts). Defaults to stdout. */
  logStream?: LogDestination;
  /** The widgets' script-tag build to serve. Defaults to packages/widgets/dist/cdn (widgets.ts). */
  widgetsDir?: string;
  /** The clock of time-dependent rules (re-confirmation); the real one by default. */
  now?: () => Date;
}

/**
 * Builds the server: infrastructure plugins first, then security and auth, then routes
 * (fastify/demo order). The caller listens and closes.
 */
export async function buildApp({
  env,
  database,
  logStream,
  widgetsDir,
  now = () => new Date(),
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(env, logStream),
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY,
    // The caller's X-Request-Id when sane, else a UUID; echoed on every answer (docs/operations.md).
    genReqId: requestId,
    requestIdHeader: false,
    // A graceful stop answers what still arrives on open connections instead of a 503
    // (plugins/shutdown.ts).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Refusals before routing carry catalogue keys too (found by the fuzz test).
    frameworkErrors,
    clientErrorHandler,
  });
  const routeTable: RouteOptions[] = [];
  app.decorate('routeTable', routeTable);
  app.decorate('now', now);
  app.addHook('onRoute', (route) => {
    routeTable.push(route);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  // Before the session lookup and every handler: no NUL or lone surrogate reaches a query.
  await app.register(textInputPlugin);
  await app.register(shutdownPlugin);
  await app.register(databasePlugin, { database, env });
  await app.register(mailPlugin, { env });
  await app.register(alertDigestsPlugin, { env });
  await app.register(reconfirmPlugin, { env });
  // Embedded database on disk only: online snapshots into DATA_DIR/backups.
  await app.register(snapshotsPlugin, { env });
  await app.register(securityPlugin, { env });
  await app.register(httpCachePlugin);
  // After the http-cache plugin: cookies only on private or no-store answers (security.ts).
  await app.register(cookiePolicyPlugin);
  // Compresses JSON, XML and text answers of 1 KB and more (brotli, else gzip, by
  // Accept-Encoding). Its onSend hook is added to each route (route-level), and Fastify runs a
  // route's own hooks after the instance's: the http-cache plugin has hashed the uncompressed
  // body into the ETag and answered 304 before this compresses, so the ETag is the same for
  // every encoding. Registered before the routes (it hooks onRoute). Files that come compressed
  // already (the site's and widgets' precompressed copies) carry Content-Encoding and are left
  // as they are.
  await app.register(compress, { global: true, ...compressOptions() });
  await app.register(metricsPlugin, { env });
  await app.register(docsPlugin);
  await app.register(authPlugin, { env });

  await app.register(healthRoutes);
  await app.register(envRoutes, { env });
  await app.register(sitemapRoutes, { env });
  await app.register(feedRoutes, { env });
  await app.register(
    async (api) => {
      await api.register(authRoutes, { env });
      await api.register(accountRoutes, { env });
      await api.register(serviceRoutes);
      await api.register(vacancyRoutes);
      await api.register(myRoutes);
      await api.register(reconfirmRoutes);
      await api.register(duplicateRoutes);
      await api.register(reportRoutes);
      await api.register(adminRoutes);
      await api.register(campaignRoutes);
      await api.register(unsubscribeRoutes);
      await api.register(alertRoutes, { env });
      await api.register(mapRoutes);
      await api.register(geocodeRoutes, { env });
      await api.register(openDataRoutes, { env });
    },
    { prefix: '/api/v1' },
  );
  await app.register(widgetsPlugin, { dir: widgetsDir, releases: env.WIDGETS_RELEASES_DIR });
  await app.register(sitePlugin, { env });
  return app;
}
