import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../db/index.js';
import { fromReplica, readFailure, ReplicaHealth } from '../db/replica.js';
import type { Env } from '../env.js';
import { followPrimary } from '../search/cache.js';

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
    /** The read replica's circuit breaker and lag check; absent without a replica. */
    replica?: ReplicaHealth;
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

type ReplicaEnv = Pick<Env, 'REPLICA_RETRY_MS' | 'REPLICA_MAX_LAG_MS'>;

/** How often the replica's replay lag is measured (with REPLICA_MAX_LAG_MS). */
const LAG_CHECK_MS = 1000;

/**
 * Exposes the opened database to every route; closes it when the server closes. With a replica,
 * a replica route whose read fails for want of a replica connection (down, unreachable, timed
 * out, or a statement cancelled by replay) runs once more on the primary, and the circuit breaker
 * (`app.replica`, db/replica.ts) sends the next requests straight to the primary until a probe
 * finds the replica again.
 */
export const databasePlugin = fp(
  async (
    app: FastifyInstance,
    { database, env }: { database: Database; env?: Partial<ReplicaEnv> },
  ) => {
    app.decorate('database', database);
    app.decorate('primaryDb', database.db);
    const replica = database.read;
    app.decorate('db', replica ? routedDb(database.db, replica) : database.db);
    app.addHook('onClose', async () => {
      app.replica?.stop();
      await database.close();
    });
    if (!replica) return;

    const pools = database.pools;
    if (pools?.read) {
      // The search cache learns of writes on the primary (a standby cannot LISTEN) and keeps a
      // page read from the replica only once the replica has replayed them.
      followPrimary(pools.read, pools.primary);
      const health = new ReplicaHealth({
        replica: pools.read,
        primary: pools.primary,
        retryMs: env?.REPLICA_RETRY_MS ?? 5000,
        maxLagMs: env?.REPLICA_MAX_LAG_MS ?? 30_000,
        checkMs: LAG_CHECK_MS,
        log: app.log,
      });
      app.decorate('replica', health);
      // An idle replica connection that breaks (the standby stopped or restarted) opens the
      // circuit before a request has to find out.
      pools.read.on('error', (err) => health.failed(err));
    }

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
      route.handler = async function replicaHandler(this: FastifyInstance, request, reply) {
        const health = app.replica;
        if (health && !health.usable) {
          health.fallbacks++;
          return handler.call(this, request, reply);
        }
        try {
          return await onReplica.run(true, () => handler.call(this, request, reply));
        } catch (err) {
          const failure = readFailure(err);
          if (!failure || reply.sent) throw err;
          // The same read, once, on the primary (a GET route: nothing was written).
          if (failure === 'down' && fromReplica(err)) health?.failed(err);
          if (health) health.fallbacks++;
          return handler.call(this, request, reply);
        }
      };
    });
  },
);

/** True while the current code runs for a replica route (for tests and diagnostics). */
export const readsFromReplica = (): boolean => onReplica.getStore() === true;
