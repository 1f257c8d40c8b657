import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import client from 'prom-client';
import { PoruchError } from '@poruch/core';
import type { Env } from '../env.js';
import { PRIVATE } from './http-cache.js';

/** Outbox statuses reported by `poruch_outbox_messages` (sent and cancelled only grow). */
const OUTBOX_STATUSES = ['queued', 'sending', 'failed'] as const;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** True when the Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

/** The PostgreSQL pools behind the app's databases, by name (primary, and the read replica's). */
function pgPools(app: FastifyInstance): Map<string, pg.Pool> {
  const pools = new Map<string, pg.Pool>();
  const given = app.database.pools;
  if (given) {
    pools.set('primary', given.primary);
    if (given.read) pools.set('read', given.read);
    return pools;
  }
  const primary = (app.db as unknown as { $client?: unknown }).$client;
  if (primary instanceof pg.Pool) pools.set('primary', primary);
  return pools;
}

/**
 * Prometheus metrics at `GET /metrics`, behind `Authorization: Bearer $METRICS_TOKEN`. Without
 * the token nothing is collected and the route answers 404; with it, a wrong or missing bearer
 * answers 401. Metrics (docs/operations.md#logs-and-metrics):
 * - `http_requests_total` and `http_request_duration_seconds` by method, route pattern, status;
 * - `poruch_outbox_messages{status}`: queued, sending and failed mails and pushes;
 * - `poruch_db_pool_connections{pool,state}`: total, idle, waiting and max of each PostgreSQL
 *   pool; PGlite is one in-process connection (total = max = 1);
 * - embedded database on disk: `poruch_snapshot_last_success_age_seconds`,
 *   `poruch_snapshot_failures_total{stage}`, `poruch_snapshots_total` and
 *   `poruch_snapshot_pause_seconds` (plugins/snapshots.ts), `poruch_checkpoints_total` and
 *   `poruch_checkpoint_longest_pause_seconds` (db/checkpoints.ts);
 * - the standard process metrics of prom-client (CPU, memory, event-loop lag, GC, handles).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { env }: { env: Pick<Env, 'METRICS_TOKEN'> }) => {
    const token = env.METRICS_TOKEN;
    if (!token) {
      app.get('/metrics', { config: { cache: PRIVATE }, schema: { hide: true } }, async () => {
        throw new PoruchError(404, 'not_found');
      });
      return;
    }

    // A registry per app: tests run several servers in one process.
    const register = new client.Registry();
    client.collectDefaultMetrics({ register });

    const labelNames = ['method', 'route', 'status'] as const;
    const requests = new client.Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames,
      registers: [register],
    });
    const duration = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status',
      labelNames,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [register],
    });
    app.addHook('onResponse', async (request, reply) => {
      // The pattern, not the URL: ids and query strings would make a series per request.
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    });

    new client.Gauge({
      name: 'poruch_outbox_messages',
      help: 'Mails and pushes in the outbox by status: queued (waiting), sending (claimed), failed',
      labelNames: ['status'],
      registers: [register],
      async collect() {
        const result = await app.db.execute(sql`
          SELECT status, count(*)::int AS n FROM mail_outbox
          WHERE status IN ('queued', 'sending', 'failed') GROUP BY status`);
        const rows = (result as unknown as { rows: { status: string; n: number | string }[] }).rows;
        for (const status of OUTBOX_STATUSES) {
          const row = rows.find((r) => r.status === status);
          this.set({ status }, Number(row?.n ?? 0));
        }
      },
    });

    new client.Gauge({
      name: 'poruch_db_pool_connections',
      help: 'Database connections per pool: total (open), idle, waiting (queries queued for a connection), max',
      labelNames: ['pool', 'state'],
      registers: [register],
      collect() {
        this.reset();
        const pools = pgPools(app);
        if (pools.size === 0) {
          // PGlite: one connection inside this process; queries run one at a time.
          this.set({ pool: 'primary', state: 'total' }, 1);
          this.set({ pool: 'primary', state: 'max' }, 1);
          return;
        }
        for (const [name, pool] of pools) {
          this.set({ pool: name, state: 'total' }, pool.totalCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
          this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
          this.set({ pool: name, state: 'max' }, pool.options.max);
        }
      },
    });

    const replica = app.replica;
    if (replica) {
      new client.Gauge({
        name: 'poruch_db_replica_state',
        help: 'The read replica: 1 for the current state (ok, lagging, unavailable); public reads go to the primary unless ok',
        labelNames: ['state'],
        registers: [register],
        collect() {
          for (const state of ['ok', 'lagging', 'unavailable'] as const) {
            this.set({ state }, replica.state === state ? 1 : 0);
          }
        },
      });
      new client.Counter({
        name: 'poruch_db_replica_fallbacks_total',
        help: 'Public reads answered by the primary because the replica was unavailable or lagging',
        registers: [register],
        collect() {
          this.reset();
          this.inc(replica.fallbacks);
        },
      });
      new client.Gauge({
        name: 'poruch_db_replica_lag_seconds',
        help: 'Replay lag of the read replica at the last check (with REPLICA_MAX_LAG_MS)',
        registers: [register],
        collect() {
          if (replica.lagMs !== null) this.set(replica.lagMs / 1000);
        },
      });
    }

    const snapshots = app.snapshots;
    if (snapshots) {
      new client.Gauge({
        name: 'poruch_snapshot_last_success_age_seconds',
        help: 'Age of the newest good (verified) snapshot of the embedded database; absent before the first',
        registers: [register],
        collect() {
          this.reset();
          if (snapshots.lastGood) {
            this.set((app.now().getTime() - snapshots.lastGood.getTime()) / 1000);
          }
        },
      });
      new client.Counter({
        name: 'poruch_snapshot_failures_total',
        help: 'Failed snapshots by stage: snapshot (the dump), verify (did not open), command (BACKUP_COMMAND)',
        labelNames: ['stage'],
        registers: [register],
        collect() {
          this.reset();
          for (const [stage, n] of Object.entries(snapshots.failures)) this.inc({ stage }, n);
        },
      });
      new client.Counter({
        name: 'poruch_snapshots_total',
        help: 'Good snapshots taken by this process',
        registers: [register],
        collect() {
          this.reset();
          this.inc(snapshots.successes);
        },
      });
      new client.Gauge({
        name: 'poruch_snapshot_pause_seconds',
        help: 'Longest time the last snapshot held the embedded database (requests waited)',
        registers: [register],
        collect() {
          this.reset();
          if (snapshots.lastPauseMs !== null) this.set(snapshots.lastPauseMs / 1000);
        },
      });
    }
    const checkpoints = app.checkpoints;
    if (checkpoints) {
      new client.Counter({
        name: 'poruch_checkpoints_total',
        help: 'Checkpoints the embedded database took to keep its WAL short (db/checkpoints.ts)',
        registers: [register],
        collect() {
          this.reset();
          this.inc(checkpoints.count);
        },
      });
      new client.Gauge({
        name: 'poruch_checkpoint_longest_pause_seconds',
        help: 'Longest time one of those checkpoints held the embedded database (requests waited)',
        registers: [register],
        collect() {
          this.set(checkpoints.longestMs / 1000);
        },
      });
    }

    new client.Gauge({
      name: 'poruch_db_info',
      help: 'The database behind this process (kind: pglite or postgres)',
      labelNames: ['kind'],
      registers: [register],
      collect() {
        this.set({ kind: app.database.kind }, 1);
      },
    });

    app.get(
      '/metrics',
      { config: { cache: PRIVATE }, schema: { hide: true } },
      async (request, reply) => {
        if (!bearerMatches(request.headers.authorization, token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new PoruchError(401, 'unauthorized');
        }
        reply.type(register.contentType);
        return register.metrics();
      },
    );
  },
);
