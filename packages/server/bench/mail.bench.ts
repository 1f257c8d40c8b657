/**
 * Mail benchmark: a 10,000-recipient campaign on PGlite (on disk, the default) and on PostgreSQL.
 *
 *   pnpm --filter @poruch/server exec tsx bench/mail.bench.ts [--recipients 10000]
 *     [--rate 12000] [--quick] [--pg postgres://…] [--no-pg]
 *
 * Per database: the time of `POST admin/campaigns` over HTTP (the campaign row, 10,000 outbox
 * rows and 10,000 recipient rows in one transaction, set-based; target ≤ 2 s), then the delivery
 * of every mail to a loopback SMTP server (smtp-server, each message parsed) at the configured
 * MAIL_RATE_PER_MINUTE: total time, achieved rate, and the busiest second. A second, smaller campaign
 * with no effective limit measures the ceiling of one worker. `--quick` (CI) delivers the 10k
 * campaign with no limit. Prints a Markdown table for
 * docs/performance.md.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { openDatabase, type Database } from '../src/db/index.js';
import { accounts } from '../src/db/schema.js';
import { hashPassword } from '../src/lib/passwords.js';
import { TestClient } from '../src/__tests__/helpers/client.js';
import { benchArgs, postgresDatabase, serveApp } from './common.js';

const args = benchArgs({
  recipients: { type: 'string' },
  rate: { type: 'string' },
});
const RECIPIENTS = Number(args.recipients ?? 10_000);
// --quick: the same 10,000-recipient campaign, delivered as fast as one worker goes.
const RATE = Number(args.rate ?? (args.quick ? 1_000_000 : 12_000));
const CEILING_RATE = 1_000_000;
const PASSWORD = 'bench admin password';

/** A loopback SMTP server that parses every message and notes when it arrived. */
async function countingSmtp() {
  const arrivals: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        arrivals.push(Date.now());
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function seed(database: Database, owners: number, category: string) {
  await database.db.execute(sql`
    INSERT INTO accounts (email, password_hash, type, locale)
    SELECT 'owner' || g || '-' || ${category} || '@bench.test', 'x', 'PARTNER',
           CASE WHEN g % 2 = 0 THEN 'ua' ELSE 'en_GB' END
    FROM generate_series(1, ${owners}::int) g`);
  await database.db.execute(sql`
    INSERT INTO services (owner_id, name, country_code, category, status)
    SELECT id, 'Service of ' || email, 'PL', ${category}, 'approved'
    FROM accounts WHERE email LIKE ${'%-' + category + '@bench.test'}`);
}

interface Pass {
  enqueueMs: number;
  mails: number;
  deliverMs: number;
  perMinute: number;
  busiestSecond: number;
}

/** One campaign to `owners` owners of `category`, delivered at `rate` a minute. */
async function pass(
  database: Database,
  category: string,
  owners: number,
  rate: number,
): Promise<Pass> {
  const smtp = await countingSmtp();
  // The database outlives the app: the passes share it.
  const { base, close } = await serveApp(
    { ...database, close: async () => {} },
    { SMTP_URL: smtp.url, MAIL_RATE_PER_MINUTE: String(rate), MAIL_POLL_MS: '100' },
  );
  try {
    const admin = new TestClient(base);
    await admin.init();
    const login = await admin.post('/api/v1/auth/login', {
      email: 'admin@bench.test',
      password: PASSWORD,
    });
    if (login.status !== 200) throw new Error(`login: ${login.status}`);
    const t0 = performance.now();
    const created = await admin.post('/api/v1/admin/campaigns', {
      subject: 'Новини Поруч',
      content: '# Новини\n\nПривіт! **Важливо**: [сайт](https://poruch.example).',
      statuses: ['approved'],
      categories: [category],
    });
    const enqueueMs = performance.now() - t0;
    if (created.status !== 201 || created.body.queued !== owners) {
      throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
    }
    const start = Date.now();
    while (smtp.arrivals.length < owners) {
      if (Date.now() - start > 15 * 60_000) throw new Error('delivery took over 15 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const first = smtp.arrivals[0]!;
    const last = smtp.arrivals.at(-1)!;
    let busiest = 0;
    for (let i = 0, j = 0; i < smtp.arrivals.length; i++) {
      while (smtp.arrivals[i]! - smtp.arrivals[j]! >= 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    return {
      enqueueMs,
      mails: owners,
      deliverMs: last - start,
      perMinute: Math.round(((owners - 1) / Math.max(1, last - first)) * 60_000),
      busiestSecond: busiest,
    };
  } finally {
    await close();
    await smtp.close();
  }
}

async function run(kind: 'PGlite (disk)' | 'PostgreSQL') {
  const rows: string[] = [];
  const ceiling = args.quick ? 1_000 : 3_000;
  const open = async () => {
    if (kind === 'PostgreSQL') return postgresDatabase(String(args.pg));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-bench-mail-db-'));
    const database = await openDatabase({ dataDir: dir });
    return { database, drop: () => fs.rm(dir, { recursive: true, force: true }) };
  };
  // Two campaigns of different categories on one database: 10k at the configured rate, and a
  // smaller one with no effective limit (the ceiling of one worker).
  const { database, drop } = await open();
  const seeded = performance.now();
  await database.db.insert(accounts).values({
    email: 'admin@bench.test',
    passwordHash: await hashPassword(PASSWORD),
    type: 'ADMIN',
  });
  await seed(database, RECIPIENTS, 'food');
  await seed(database, ceiling, 'tourism');
  const seedMs = performance.now() - seeded;
  const passes: [string, string, number, number][] = [
    [`MAIL_RATE_PER_MINUTE=${RATE}`, 'food', RECIPIENTS, RATE],
    ['no limit (ceiling)', 'tourism', ceiling, CEILING_RATE],
  ];
  for (const [label, category, n, rate] of passes) {
    const p = await pass(database, category, n, rate);
    rows.push(
      `| ${kind} | ${label} | ${n} | ${p.enqueueMs.toFixed(0)} ms | ${(p.deliverMs / 1000).toFixed(1)} s | ${p.perMinute} | ${p.busiestSecond} |`,
    );
    console.log(rows.at(-1));
  }
  await database.close();
  await drop();
  return { rows, seedMs };
}

console.log(
  `mail bench: ${RECIPIENTS} recipients, rate ${RATE}/min, ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const table = [
  '| database | pass | mails | POST admin/campaigns (enqueue) | delivery, all mails | achieved per minute | busiest second |',
  '|---|---|---|---|---|---|---|',
];
for (const kind of ['PGlite (disk)', 'PostgreSQL'] as const) {
  if (kind === 'PostgreSQL' && args['no-pg']) continue;
  const { rows, seedMs } = await run(kind);
  console.log(`${kind}: seeded in ${(seedMs / 1000).toFixed(1)} s`);
  table.push(...rows);
}
console.log(`\n${table.join('\n')}\n`);
