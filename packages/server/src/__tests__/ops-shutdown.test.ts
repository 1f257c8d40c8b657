import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/index.js';
import { accounts, mailOutbox, services } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { startChildServer, throwawayPostgres, type ChildServer } from './helpers/child.js';
import { TestClient } from './helpers/client.js';

const ADMIN_EMAIL = 'shutdown-admin@example.org';
const ADMIN_PASSWORD = 'shutdown admin password';
/** Each mail takes this long at the SMTP server, so a batch is in progress at any moment. */
const SMTP_DELAY_MS = 120;

/** `node --import tsx src/main.ts`: the real server process, as `pnpm dev` runs it. */
const startServer = (env: Record<string, string>) =>
  startChildServer({ NODE_ENV: 'development', LOG_LEVEL: 'info', ...env }, 90_000);

interface Write {
  n: number;
  start: number;
  end: number;
  status?: number;
  error?: string;
}

/** One report on a new connection (no keep-alive), from its own forwarded address. */
function postReport(url: string, serviceId: string, n: number): Promise<Write> {
  const body = JSON.stringify({ serviceId, reason: 'other', description: `shutdown-write-${n}` });
  const start = Date.now();
  return new Promise((resolve) => {
    const req = http.request(
      `${url}/api/v1/reports`,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          // Rate limits are per IP: every write comes from another one (TRUST_PROXY=true).
          'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ n, start, end: Date.now(), status: res.statusCode }));
        res.on('error', (e: NodeJS.ErrnoException) =>
          resolve({ n, start, end: Date.now(), error: e.code ?? e.message }),
        );
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve({ n, start, end: Date.now(), error: e.code ?? e.message }),
    );
    req.end(body);
  });
}

/**
 * Graceful shutdown, with a real child process: SIGTERM in the middle of a stream of
 * writes and of an outbox batch; every acknowledged write survives, nothing accepted is reset,
 * the batch is finished, the process exits 0.
 */
describe('graceful shutdown', () => {
  const smtpIds: string[] = [];
  let smtp: SMTPServer;
  let smtpUrl: string;
  let dataDir: string;
  let dbEnv: Record<string, string>;
  let dropDb = async () => {};
  let serviceId: string;
  const children: ChildServer[] = [];

  const openDb = () =>
    openDatabase(
      dbEnv.DATABASE_URL
        ? { url: dbEnv.DATABASE_URL, dataDir: '' }
        : { dataDir: path.join(dataDir, 'db') },
    );

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString()));
        stream.on('end', () => {
          setTimeout(() => {
            const id = /X-Poruch-Outbox-Id: (\S+)/i.exec(raw)?.[1];
            if (id) smtpIds.push(id);
            callback();
          }, SMTP_DELAY_MS);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as net.AddressInfo).port}`;

    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-shutdown-'));
    dbEnv = {};
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (process.env.PORUCH_TEST_DB === 'postgres' && serverUrl) {
      const throwaway = await throwawayPostgres(serverUrl, 'poruch_test');
      dbEnv.DATABASE_URL = throwaway.url;
      dropDb = throwaway.drop;
    }

    // An administrator (who gets a mail per report) and an approved service to report.
    const database = await openDb();
    await database.db.insert(accounts).values({
      email: ADMIN_EMAIL,
      passwordHash: await hashPassword(ADMIN_PASSWORD),
      type: 'ADMIN',
      firstName: 'Admin',
      locale: 'en_GB',
    });
    const [service] = await database.db
      .insert(services)
      .values({ name: 'Shutdown test service', countryCode: 'PL', status: 'approved' })
      .returning({ id: services.id });
    serviceId = service!.id;
    await database.close();
  });

  afterAll(async () => {
    for (const c of children) await c.kill('SIGKILL');
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
    await dropDb();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('SIGTERM during writes and an outbox batch: no acknowledged write lost, nothing accepted reset, batch finished, exit 0', async () => {
    const env = {
      ...dbEnv,
      DATA_DIR: dataDir,
      SMTP_URL: smtpUrl,
      MAIL_POLL_MS: '20',
      MAIL_RATE_PER_MINUTE: '6000',
      TRUST_PROXY: 'true',
      SHUTDOWN_TIMEOUT_MS: '20000',
    };
    const first = await startServer(env);
    children.push(first);

    let n = 0;
    let stop = false;
    const writes: Write[] = [];
    const writer = async () => {
      while (!stop) {
        const w = await postReport(first.url, serviceId, ++n);
        writes.push(w);
        // Pacing, not waiting for an event: a refused connection must not spin the loop.
        if (w.error) await new Promise((r) => setTimeout(r, 5));
      }
    };
    const writers = Array.from({ length: 6 }, writer);

    // Run until writes are acknowledged and the outbox worker is delivering.
    await vi
      .waitUntil(() => writes.filter((w) => w.status === 201).length >= 60 && smtpIds.length >= 3, {
        timeout: 60_000,
        interval: 20,
      })
      .catch(() => {
        throw new Error(`no progress:\n${first.output()}`);
      });
    const sentAtTerm = smtpIds.length;
    const termAt = Date.now();
    void first.kill('SIGTERM');
    const code = await Promise.race([
      first.exited,
      new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000)),
    ]);
    stop = true;
    await Promise.all(writers);
    const log = first.output();
    expect(code, log).toBe(0);
    expect(log).toContain('"msg":"shut down"');

    const acked = writes.filter((w) => w.status !== undefined && w.status >= 200 && w.status < 300);
    const failed = writes.filter((w) => w.error !== undefined);
    const other = writes.filter(
      (w) => w.status !== undefined && (w.status < 200 || w.status >= 300),
    );
    // Nothing answered with an error: requests either completed or never got in.
    expect(other.map((w) => w.status)).toEqual([]);
    // Requests in flight at SIGTERM were finished and acknowledged.
    const inFlight = acked.filter((w) => w.start < termAt && w.end > termAt);
    expect(inFlight.length).toBeGreaterThan(0);
    // After SIGTERM new connections are refused (the port is closed), not reset mid-request.
    expect(failed.length).toBeGreaterThan(0);
    for (const w of failed) expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']).toContain(w.error);

    // The outbox: the batch in hand at SIGTERM was delivered, nothing is left claimed.
    expect(smtpIds.length).toBeGreaterThan(sentAtTerm);
    const database = await openDb();
    const stuck = await database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'sending'));
    expect(stuck).toEqual([]);
    const sent = await database.db
      .select({ id: mailOutbox.id, sentAt: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'sent'));
    // Every mail the SMTP server took is recorded as sent and confirmed, each exactly once.
    expect(new Set(smtpIds).size).toBe(smtpIds.length);
    expect(sent.map((s) => s.id).sort()).toEqual([...smtpIds].sort());
    expect(sent.every((s) => s.sentAt !== null)).toBe(true);
    const [{ queued }] = (
      (await database.db.execute(
        sql`SELECT count(*)::int AS queued FROM mail_outbox WHERE status = 'queued'`,
      )) as unknown as { rows: { queued: number }[] }
    ).rows as [{ queued: number }];
    await database.close();

    // Restart: every acknowledged write is there, and no write that failed on the wire.
    const second = await startServer({ ...env, MAIL_WORKER: 'false' });
    children.push(second);
    const admin = new TestClient(second.url);
    await admin.init();
    expect(
      (await admin.post('/api/v1/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }))
        .status,
    ).toBe(200);
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const res = await admin.get(`/api/v1/admin/reports?page=${page}&pageSize=100`);
      expect(res.status).toBe(200);
      for (const r of res.body.items as { description: string }[]) stored.add(r.description);
      if (res.body.items.length < 100) break;
    }
    const missing = acked.filter((w) => !stored.has(`shutdown-write-${w.n}`)).map((w) => w.n);
    expect(missing).toEqual([]);
    const acceptedThenReset = failed
      .filter((w) => stored.has(`shutdown-write-${w.n}`))
      .map((w) => `${w.n}: ${w.error}`);
    expect(acceptedThenReset).toEqual([]);
    expect(stored.size).toBe(acked.length);
    // One mail per report to the one administrator: what was not sent is still queued.
    expect(queued + smtpIds.length).toBe(acked.length);

    await second.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 240_000);
});
