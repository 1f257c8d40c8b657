import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { waitUntil } from './helpers.js';

interface Attempt {
  to: string;
  at: number;
  stage: 'rcpt' | 'data';
  messageId?: string;
  accepted: boolean;
}

/**
 * A real SMTP server on loopback whose answers depend on the recipient's local part:
 * `rcpt451x2` refuses RCPT twice with 451 then accepts, `rcpt550` refuses with 550,
 * `data451x1` refuses the message after DATA once with 451, `data554` with 554, `always451`
 * always with 451. Every attempt is recorded with its time and Message-ID.
 */
async function startPickySmtp() {
  const attempts: Attempt[] = [];
  const count = (to: string, stage: string) =>
    attempts.filter((a) => a.to === to && a.stage === stage).length;
  const refuse = (code: number) =>
    Object.assign(new Error(`refused ${code}`), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const local = to.split('@')[0]!;
      const n = count(to, 'rcpt');
      let code = 0;
      if (local.startsWith('rcpt451x2') && n < 2) code = 451;
      if (local.startsWith('rcpt550')) code = 550;
      if (local.startsWith('always451')) code = 451;
      attempts.push({ to, at: Date.now(), stage: 'rcpt', accepted: code === 0 });
      callback(code ? refuse(code) : undefined);
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo[0]!.address.toLowerCase();
      const local = to.split('@')[0]!;
      simpleParser(stream)
        .then((mail) => {
          const n = count(to, 'data');
          let code = 0;
          if (local.startsWith('data451x1') && n < 1) code = 451;
          if (local.startsWith('data554')) code = 554;
          attempts.push({
            to,
            at: Date.now(),
            stage: 'data',
            messageId: mail.messageId,
            accepted: code === 0,
          });
          callback(code ? refuse(code) : null);
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    attempts,
    delivered: (to: string) =>
      attempts.filter((a) => a.to === to && a.stage === 'data' && a.accepted),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const enqueue = async (server: TestServer, to: string) => {
  await server.app.mail.outbox.enqueue(server.database.db, {
    to,
    locale: 'en_GB',
    // Not accountDeleted: its rows forget the address once delivered or failed (privacy).
    template: 'serviceApproved',
    params: { serviceName: 'Перукарня', dashboardUrl: 'http://127.0.0.1/dashboard' },
    key: `test:${to}`,
  });
  server.app.mail.worker?.wake();
};
const rowOf = async (server: TestServer, to: string) =>
  (await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, to)))[0]!;

describe('delivery: retries, back-off, permanent failures', () => {
  let smtp: Awaited<ReturnType<typeof startPickySmtp>>;
  let server: TestServer;
  const BASE = 400;

  beforeAll(async () => {
    smtp = await startPickySmtp();
    server = await startTestServer({
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      MAIL_RATE_PER_MINUTE: '60000',
      MAIL_RETRY_BASE_MS: String(BASE),
      MAIL_MAX_ATTEMPTS: '4',
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('retries a temporary refusal (4xx) with exponential back-off, then delivers once', async () => {
    const to = 'rcpt451x2@example.org';
    await enqueue(server, to);
    await waitUntil(() => smtp.delivered(to).length === 1, 15_000, 'delivery after retries');
    const tries = smtp.attempts.filter((a) => a.to === to && a.stage === 'rcpt');
    expect(tries.map((t) => t.accepted)).toEqual([false, false, true]);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(BASE - 20);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(2 * BASE - 20);
    const row = await waitUntil(async () => {
      const r = await rowOf(server, to);
      return r.status === 'sent' ? r : null;
    });
    expect(row).toMatchObject({ attempts: 3, lastError: null });
    // Nothing more may come. The worker polls every 50 ms: in 2 × BASE it looks 16 times, so a row
    // still due (a retry scheduled by mistake comes after BASE at most here) would have gone out.
    await new Promise((r) => setTimeout(r, 2 * BASE));
    expect(smtp.delivered(to)).toHaveLength(1);
  });

  it('records a permanent refusal (5xx) as failed without retrying', async () => {
    const to = 'rcpt550@example.org';
    await enqueue(server, to);
    const row = await waitUntil(async () => {
      const r = await rowOf(server, to);
      return r.status === 'failed' ? r : null;
    });
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain('550');
    // No retry may come: the first would be due BASE after the refusal; 3 × BASE leaves the worker
    // (polling every 50 ms) ample time to send one by mistake.
    await new Promise((r) => setTimeout(r, 3 * BASE));
    expect(smtp.attempts.filter((a) => a.to === to)).toHaveLength(1);
  });

  it('retries a refusal after the end of data, keeping the Message-ID', async () => {
    const to = 'data451x1@example.org';
    await enqueue(server, to);
    await waitUntil(() => smtp.delivered(to).length === 1, 15_000, 'delivery after a 451');
    const datas = smtp.attempts.filter((a) => a.to === to && a.stage === 'data');
    expect(datas.map((d) => d.accepted)).toEqual([false, true]);
    const row = await rowOf(server, to);
    expect(datas[0]!.messageId).toBe(row.messageId);
    expect(datas[1]!.messageId).toBe(row.messageId);
    await waitUntil(async () => (await rowOf(server, to)).status === 'sent');
  });

  it('fails a message refused with 554 after the end of data', async () => {
    const to = 'data554@example.org';
    await enqueue(server, to);
    const row = await waitUntil(async () => {
      const r = await rowOf(server, to);
      return r.status === 'failed' ? r : null;
    });
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain('554');
  });

  it('gives up after MAIL_MAX_ATTEMPTS temporary refusals', async () => {
    const to = 'always451@example.org';
    await enqueue(server, to);
    const row = await waitUntil(
      async () => {
        const r = await rowOf(server, to);
        return r.status === 'failed' ? r : null;
      },
      20_000,
      'the fourth attempt',
    );
    expect(row.attempts).toBe(4);
    expect(smtp.attempts.filter((a) => a.to === to)).toHaveLength(4);
  });

  it('queues a mail once per idempotency key', async () => {
    const to = 'twice@example.org';
    await enqueue(server, to);
    await enqueue(server, to);
    // The worker marks the row sent before it ends the data (docs/mail.md), so wait for both.
    await waitUntil(
      async () => smtp.delivered(to).length > 0 && (await rowOf(server, to)).status === 'sent',
    );
    // One row for the key, and it is sent: no second mail can follow.
    const rows = await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, to));
    expect(rows).toHaveLength(1);
    expect(smtp.delivered(to)).toHaveLength(1);
  });
});

describe('delivery: rate per minute', () => {
  let smtp: Awaited<ReturnType<typeof startPickySmtp>>;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startPickySmtp();
    server = await startTestServer({
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      MAIL_RATE_PER_MINUTE: '120', // 2 a second, bursts of at most 2
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('hands at most MAIL_RATE_PER_MINUTE mails a minute to SMTP', async () => {
    const all = Array.from({ length: 7 }, (_, i) => `rate${i}@example.org`);
    const start = Date.now();
    for (const to of all) await enqueue(server, to);
    await waitUntil(() => all.every((to) => smtp.delivered(to).length === 1), 20_000, 'all 7');
    const times = all.map((to) => smtp.delivered(to)[0]!.at).sort((a, b) => a - b);
    // A burst of 2, then one token every 500 ms: the k-th mail cannot be handed to SMTP before
    // (k - 2) × 500 ms after the first was queued. A mail arrives after it is handed over, never
    // before, so this holds however late the SMTP round trips of a busy machine make some
    // arrivals (comparing arrivals with each other did not: a late first one shortened the gap).
    times.forEach((at, i) => {
      expect(at - start, `mail ${i + 1}`).toBeGreaterThanOrEqual(Math.max(0, i - 1) * 500 - 20);
    });
  });
});
