import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { migrationStatus, type Db } from '../db/index.js';
import { fromReplica, readFailure } from '../db/replica.js';

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

const readySchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Why the instance is not ready. */
  reason: z.enum(['database_unavailable', 'migrations_pending']).optional(),
  /** Migrations of this build not applied to the database. */
  pendingMigrations: z.number().int().optional(),
  /**
   * The read replica, when one is configured: `ok` (public reads go there), `unavailable` (it does
   * not answer: public reads go to the primary) or `lagging` (replay further behind than
   * REPLICA_MAX_LAG_MS: public reads go to the primary). Informational: readiness does not depend
   * on it, the primary serves the reads meanwhile.
   */
  replica: z.enum(['ok', 'unavailable', 'lagging']).optional(),
});

/** Longest /readyz waits for a database answer. */
const READY_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const ping = (db: Db) => withTimeout(db.execute(sql`select 1`), READY_TIMEOUT_MS);

/**
 * `/healthz` answers while the process runs (liveness). `/readyz` (readiness) answers 200 only
 * when the primary database answers and every migration this build carries is applied; otherwise
 * 503 with the reason.
 */
export async function healthRoutes(app: FastifyInstance) {
  // Migrations are never unapplied: once all are there, later checks skip the journal read.
  let migrated = false;

  app.get('/healthz', { schema: { tags: ['ops'], response: { 200: healthSchema } } }, async () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/readyz',
    { schema: { tags: ['ops'], response: { 200: readySchema, 503: readySchema } } },
    async (request, reply) => {
      const replicaDb = app.database.read;
      const health = app.replica;
      const replica = replicaDb
        ? ping(replicaDb).then(
            // The breaker's state: reads stay on the primary until its own probe succeeds.
            () => health?.state ?? ('ok' as const),
            (err: unknown) => {
              if (fromReplica(err) && readFailure(err) === 'down') health?.failed(err);
              return 'unavailable' as const;
            },
          )
        : undefined;
      let pending = 0;
      try {
        await ping(app.primaryDb);
        if (!migrated) {
          pending = (await withTimeout(migrationStatus(app.primaryDb), READY_TIMEOUT_MS)).pending;
          migrated = pending === 0;
        }
      } catch (err) {
        request.log.warn({ err }, 'readyz: database unavailable');
        return reply
          .code(503)
          .send({ status: 'unavailable', reason: 'database_unavailable', replica: await replica });
      }
      if (pending > 0) {
        return reply.code(503).send({
          status: 'unavailable',
          reason: 'migrations_pending',
          pendingMigrations: pending,
          replica: await replica,
        });
      }
      return { status: 'ok' as const, replica: await replica };
    },
  );
}
