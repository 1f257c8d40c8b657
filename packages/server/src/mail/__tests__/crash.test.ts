import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/index.js';
import { accounts, mailOutbox } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { startChildServer, throwawayPostgres } from '../../__tests__/helpers/child.js';
import { TestClient } from '../../__tests__/helpers/client.js';
import { waitUntil } from './helpers.js';

const RECIPIENTS = 2_000;
const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

/** A loopback SMTP server that counts complete messages per recipient (partial DATA is dropped). */
async function startCountingSmtp() {
  const byRecipient = new Map<string, string[]>();
  let total = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream, { skipHtmlToText: true, skipTextToHtml: true })
        .then((mail) => {
          const to = session.envelope.rcptTo[0]!.address.toLowerCase();
          byRecipient.set(to, [...(byRecipient.get(to) ?? []), mail.messageId ?? '']);
          total++;
          callback();
        })
        .catch(callback);
    },
  });
  // A killed client resets its connection: expected here, not a failure of the server.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    byRecipient,
    total: () => total,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The server from source as a child process, mailing every 100 ms without a rate limit. */
function startChild(env: Record<string, string>) {
  return startChildServer({ MAIL_POLL_MS: '100', MAIL_RATE_PER_MINUTE: '60000', ...env });
}

/**
 * Crash test: a 2,000-recipient campaign, the server SIGKILLed twice in the middle of sending,
 * restarted on the same data each time; every recipient ends with exactly one mail.
 */
describe(`crash in the middle of a campaign (${onPostgres ? 'PostgreSQL' : 'PGlite on disk'})`, () => {
  let dataDir: string;
  let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  const children: Awaited<ReturnType<typeof startChild>>[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-crash-'));
    smtp = await startCountingSmtp();
    if (onPostgres) {
      const throwaway = await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'poruch_crash');
      databaseUrl = throwaway.url;
      dropDatabase = throwaway.drop;
    }
    // The recipients go straight into the database before the server starts.
    const database = await openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, 'db') });
    await database.db.insert(accounts).values({
      email: 'admin@crash.test',
      passwordHash: await hashPassword('crash test admin'),
      type: 'ADMIN',
    });
    await database.db.execute(sql`
      INSERT INTO accounts (email, password_hash, type, locale)
      SELECT 'owner' || g || '@crash.test', 'x', 'PARTNER',
             CASE WHEN g % 2 = 0 THEN 'ua' ELSE 'en_GB' END
      FROM generate_series(1, ${RECIPIENTS}::int) g`);
    await database.db.execute(sql`
      INSERT INTO services (owner_id, name, country_code, category, status)
      SELECT id, 'Service of ' || email, 'PL', 'food', 'approved'
      FROM accounts WHERE type = 'PARTNER'`);
    await database.close();
  }, 120_000);

  afterAll(async () => {
    for (const c of children) await c.kill('SIGKILL');
    await smtp?.close();
    await dropDatabase();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'never sends a mail twice and loses none but the marked unconfirmed, across two SIGKILLs',
    { timeout: 240_000 },
    async () => {
      const env = {
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        // PostgreSQL may have other workers: a row left in `sending` waits for its lease.
        MAIL_LEASE_SECONDS: '3',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      };
      let server = await startChild(env);
      children.push(server);
      const admin = new TestClient(server.url);
      await admin.init();
      expect(
        (
          await admin.post('/api/v1/auth/login', {
            email: 'admin@crash.test',
            password: 'crash test admin',
          })
        ).status,
      ).toBe(200);
      const created = await admin.post('/api/v1/admin/campaigns', {
        subject: 'Crash test',
        content: 'One mail each, whatever happens.',
        statuses: ['approved'],
        categories: ['food'],
      });
      expect(created.status).toBe(201);
      expect(created.body.queued).toBe(RECIPIENTS);
      const campaignId = created.body.id as string;

      for (const at of [RECIPIENTS * 0.2, RECIPIENTS * 0.55]) {
        await waitUntil(() => smtp.total() >= at, 120_000, `${at} mails`);
        await server.kill('SIGKILL');
        const before = smtp.total();
        expect(before).toBeLessThan(RECIPIENTS);
        server = await startChild(env);
        children.push(server);
      }

      // Done when every row is sent or failed (progress counts both).
      const again = new TestClient(server.url);
      await again.init();
      await again.post('/api/v1/auth/login', {
        email: 'admin@crash.test',
        password: 'crash test admin',
      });
      const progress = await waitUntil(
        async () => {
          const res = await again.get(`/api/v1/admin/campaigns/${campaignId}`);
          return res.body.sent + res.body.failed >= RECIPIENTS ? res.body : null;
        },
        120_000,
        'the campaign to finish',
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${smtp.total()} mails\n${server.output()}`);
      });
      expect(progress).toMatchObject({ queued: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
      // Anything still to come would be a duplicate. Only this process could send it, and it
      // exits (SIGTERM) only after its mail in flight has its answer, which the SMTP server gives
      // once it has counted the mail: once it has exited, every mail it sent is counted.
      await server.kill('SIGTERM');

      // Never twice: no address has two mails, and no Message-ID arrived twice.
      const duplicates = [...smtp.byRecipient].filter(([, ids]) => ids.length > 1);
      expect(duplicates).toEqual([]);
      const messageIds = [...smtp.byRecipient.values()].flat();
      expect(new Set(messageIds).size).toBe(messageIds.length);

      // Exactly once, except what docs/mail.md calls unconfirmed: a row committed as sent just
      // before its end-of-data mark when the process died (at most the one mail in flight per kill).
      // Those are the only mails that may be missing, and they are marked.
      const database = await openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, 'db') });
      const unconfirmed = (
        await database.db
          .select({ recipient: mailOutbox.recipient })
          .from(mailOutbox)
          .where(
            and(
              eq(mailOutbox.campaignId, campaignId),
              eq(mailOutbox.status, 'sent'),
              isNull(mailOutbox.sentAt),
            ),
          )
      ).map((r) => r.recipient.toLowerCase());
      await database.close();
      const missing = Array.from(
        { length: RECIPIENTS },
        (_, i) => `owner${i + 1}@crash.test`,
      ).filter((a) => !smtp.byRecipient.has(a));
      console.log(
        `[poruch] crash test: ${smtp.byRecipient.size} of ${RECIPIENTS} delivered once, ` +
          `${missing.length} missing, ${unconfirmed.length} unconfirmed`,
      );
      expect(unconfirmed.length).toBeLessThanOrEqual(2);
      for (const a of missing) expect(unconfirmed).toContain(a);
      expect(smtp.total()).toBe(RECIPIENTS - missing.length);
    },
  );
});
