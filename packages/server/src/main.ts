import path from 'node:path';
import { buildApp } from './app.js';
import { migrationStatus, openDatabase, type Db } from './db/index.js';
import { DataDirBusyError } from './db/lock.js';
import { DamagedDatabaseError, openEmbeddedOrRefuse } from './db/recovery.js';
import { EnvError, loadEnv } from './env.js';
import { listenAdminSocket } from './lib/admin-socket.js';
import { buildWordIndex } from './search/wordIndex.js';
import { mapCacheOf } from './map/index.js';
import { seedDemo } from './seed/demo.js';

/** Starts the whole product on one port: API, site and (later) widget bundles. */
async function main() {
  const env = loadEnv();
  // The embedded database is this process's alone: openDatabase locks DATA_DIR (db/lock.ts), and
  // every other command that opens it refuses while the server runs.
  const open = (beforeMigrate?: (db: Db) => Promise<void>) =>
    openDatabase({
      beforeMigrate,
      url: env.DATABASE_URL,
      readUrl: env.DATABASE_READ_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      replicaConnectTimeoutMs: env.REPLICA_CONNECT_TIMEOUT_MS,
      replicaQueryTimeoutMs: env.REPLICA_QUERY_TIMEOUT_MS,
      migrate: env.MIGRATE_ON_START,
      dataDir: path.join(env.DATA_DIR, 'db'),
      owner: 'server',
    });
  // A folder that will not open whole is refused, never replaced by a new, seeded one
  // (db/recovery.ts): the message names the newest good snapshot and how to restore it.
  const database = env.DATABASE_URL ? await open() : await openEmbeddedOrRefuse(env.DATA_DIR, open);
  const app = await buildApp({ env, database });
  // `pnpm admin:create` cannot open the embedded database while we hold it: it asks us over a
  // unix socket in DATA_DIR (owner-only) instead.
  const closeAdminSocket =
    database.kind === 'pglite'
      ? await listenAdminSocket(
          env.DATA_DIR,
          database.db,
          app.log,
          app.snapshots ? () => app.snapshots!.take() : undefined,
        )
      : null;
  // Without MIGRATE_ON_START the schema may not be there yet; /readyz says so, seeding waits.
  if (env.SEED_DEMO && (await migrationStatus(database.db)).pending === 0) {
    const seeded = await seedDemo(database.db);
    if (seeded) app.log.info({ services: seeded }, 'demo catalogue seeded');
  }
  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info({ url: env.PUBLIC_URL, database: database.kind }, 'Poruch is running');
  // Build the unfiltered map index now, so the first visitor's map does not wait for it.
  mapCacheOf(app)
    .get({})
    .catch((err: unknown) => app.log.warn({ err }, 'map warm-up failed'));
  // Build the search's word index in the background (searches take the SQL path meanwhile). With
  // a read replica the searches read the replica through SQL: no index.
  if (!database.read) {
    const started = Date.now();
    buildWordIndex(database.db)
      .then((ready) => app.log.info({ ready, ms: Date.now() - started }, 'search word index'))
      .catch((err: unknown) => app.log.warn({ err }, 'search word index failed'));
  }

  // Graceful stop (docs/operations.md#graceful-shutdown): stop listening, answer the requests in
  // flight (plugins/shutdown.ts), let the outbox worker finish its batch, close the database, exit
  // 0. Past SHUTDOWN_TIMEOUT_MS the process exits with 1 anyway; a mail left `sending` by that is
  // sent again after its lease (docs/mail.md).
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    app.log.info({ signal, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out; exiting');
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await closeAdminSocket?.();
      await app.close();
      app.log.info({ ms: Date.now() - started }, 'shut down');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (
    error instanceof EnvError ||
    error instanceof DataDirBusyError ||
    error instanceof DamagedDatabaseError
  ) {
    console.error(error.message);
  } else {
    console.error('[poruch] failed to start', error);
  }
  process.exit(1);
});
