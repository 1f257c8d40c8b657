import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

async function rows<T>(server: TestServer, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await server.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Runs SQL on the PostgreSQL server as the test administrator (outside the app's pool). */
async function asAdmin(query: string) {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

describe('/readyz', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close().catch(() => {});
    server = undefined;
  });

  it('is 503 migrations_pending while a migration of this build is not applied, 200 once it is', async () => {
    server = await startTestServer();
    // The database as an older build left it: the newest migration is not in the journal.
    const [last] = await rows<{ id: number; hash: string; created_at: string }>(
      server,
      sql`select id, hash, created_at::text from drizzle.__drizzle_migrations
          order by created_at desc limit 1`,
    );
    await server.database.db.execute(sql`delete from drizzle.__drizzle_migrations
      where id = ${last!.id}`);
    const client = new TestClient(server.url);
    const pending = await client.get('/readyz');
    expect(pending.status).toBe(503);
    expect(pending.body).toEqual({
      status: 'unavailable',
      reason: 'migrations_pending',
      pendingMigrations: 1,
    });
    // Liveness is another question: the process is fine.
    expect((await client.get('/healthz')).status).toBe(200);

    // Someone (another instance, a deploy step) applies it.
    await server.database.db.execute(sql`insert into drizzle.__drizzle_migrations
      (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`);
    const ok = await client.get('/readyz');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'ok' });
  });

  it.runIf(onPostgres)(
    'is 503 database_unavailable while PostgreSQL refuses connections, and ready again after',
    async () => {
      server = await startTestServer();
      const client = new TestClient(server.url);
      expect((await client.get('/readyz')).status).toBe(200);
      const [{ name } = { name: '' }] = await rows<{ name: string }>(
        server,
        sql`select current_database() as name`,
      );
      try {
        await asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
        const down = await client.get('/readyz');
        expect(down.status).toBe(503);
        expect(down.body).toEqual({ status: 'unavailable', reason: 'database_unavailable' });
        // The process survived its pooled connections being killed.
        expect((await client.get('/healthz')).status).toBe(200);
      } finally {
        await asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      }
      const back = await client.get('/readyz');
      expect(back.status).toBe(200);
    },
  );

  it.runIf(!onPostgres)(
    'is 503 database_unavailable once the embedded database is closed',
    async () => {
      server = await startTestServer();
      const client = new TestClient(server.url);
      expect((await client.get('/readyz')).status).toBe(200);
      await server.database.close();
      const down = await client.get('/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'unavailable', reason: 'database_unavailable' });
    },
  );
});
