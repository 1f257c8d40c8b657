import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { migrationStatus, type Db } from '../db/index.js';

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

const readySchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Why the instance is not ready. */
  reason: z.enum(['database_unavailable', 'migrations_pending']).optional(),
  /** Migrations of this build not applied to the database. */
  pendingMigrations: z.number().int().optional(),
  /**
   * The read replica, when one is configured. Informational: public reads fail while it is down,
   * but taking every instance out of the balancer would not help, so readiness does not depend on it.
   */
  replica: z.enum(['ok', 'unavailable']).optional(),
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
      const replica = replicaDb
        ? ping(replicaDb).then(
            () => 'ok' as const,
            () => 'unavailable' as const,
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
