import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../db/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The database. With a read replica (DATABASE_READ_URL), queries made while a replica route
     * (REPLICA_ROUTES, or `config.replica: true`) handles a request go to the replica; every
     * other query goes to the primary.
     */
    db: Db;
    /** The primary, always: for a write or a read-your-writes read inside a replica route. */
    primaryDb: Db;
    database: Database;
  }
  interface FastifyContextConfig {
    /**
     * Serve this route's reads from the read replica (true) or the primary (false). Defaults to
     * REPLICA_ROUTES. Only for routes that never write and may show data a moment old.
     */
    replica?: boolean;
  }
}

/**
 * The public reads that may be a replication delay behind: search, vacancy search, profiles, the
 * map and the sitemap. Everything else (writes, sessions and auth, admin, a partner's own data,
 * which must show their write at once) stays on the primary.
 */
export const REPLICA_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/v1/services',
  'GET /api/v1/services/:id',
  'GET /api/v1/vacancies',
  'GET /api/v1/map',
  'GET /sitemap.xml',
  'GET /sitemap-pages.xml',
  'GET /sitemap-services-:page.xml',
]);

/** Set while a replica route's handler (and anything it starts) runs. */
const onReplica = new AsyncLocalStorage<true>();

/**
 * One Db that answers from the replica inside a replica route's handler and from the primary
 * everywhere else. Code keeps using `app.db`; caches keyed by it (search, map) stay one per app.
 */
function routedDb(primary: Db, replica: Db): Db {
  return new Proxy(primary, {
    get(target, property) {
      const db = onReplica.getStore() ? replica : target;
      const value: unknown = Reflect.get(db, property, db);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(db) : value;
    },
  });
}

/** Exposes the opened database to every route; closes it when the server closes. */
export const databasePlugin = fp(
  async (app: FastifyInstance, { database }: { database: Database }) => {
    app.decorate('database', database);
    app.decorate('primaryDb', database.db);
    const replica = database.read;
    app.decorate('db', replica ? routedDb(database.db, replica) : database.db);
    app.addHook('onClose', async () => database.close());
    if (!replica) return;

    // Runs the handlers of replica routes inside the replica context. Hooks (the session lookup
    // of the auth plugin included) run outside it, on the primary.
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      const listed = methods.some((m) =>
        REPLICA_ROUTES.has(`${m === 'HEAD' ? 'GET' : m} ${route.url}`),
      );
      if (!(route.config?.replica ?? listed)) return;
      if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) {
        throw new Error(`${route.url}: only GET routes may read from the replica`);
      }
      const handler = route.handler;
      route.handler = function replicaHandler(this: FastifyInstance, request, reply) {
        return onReplica.run(true, () => handler.call(this, request, reply));
      };
    });
  },
);

/** True while the current code runs for a replica route (for tests and diagnostics). */
export const readsFromReplica = (): boolean => onReplica.getStore() === true;
