import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountExportSchema } from '@poruch/core';
import { accounts, auditLog, mailOutbox, reports, services } from '../db/schema.js';
import { waitUntil } from '../mail/__tests__/helpers.js';
import { loggedIn } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const rowsOf = <T>(result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * Privacy (docs/security.md § Privacy): a partner with data in every place that can hold it,
 * exported (only by itself, without secrets), then deleted; afterwards no column of any table
 * holds its e-mail, id, names or the names of its services.
 */
describe('privacy: data export and account erasure', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  // Every personal value of the partner carries this tag, so one search finds them all.
  const tag = `zq${randomBytes(5).toString('hex')}`;
  const body = registration({ email: `privacy-${tag}@example.org` });
  body.account.firstName = `Ivanka${tag}`;
  body.account.lastName = `Koval${tag}`;
  body.service.name = `Studio ${tag}`;
  body.service.descriptionUa = `Студія ${tag}`;
  let partner: TestClient;
  let accountId: string;
  let serviceId: string;
  let secondId: string;
  let otherServiceId: string;
  let admin: Awaited<ReturnType<typeof loggedIn>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50', LOG_LEVEL: 'error' });
    admin = await loggedIn(server, 'ADMIN');
    // Somebody else's approved service, which the partner reports.
    const [other] = await server.database.db
      .insert(services)
      .values({ name: 'Other bakery', countryCode: 'PL', category: 'food', status: 'approved' })
      .returning({ id: services.id });
    otherServiceId = other!.id;

    partner = new TestClient(server.url);
    await partner.init();
    const reg = await partner.post('/api/v1/auth/register', body);
    expect(reg.status).toBe(201);
    accountId = reg.body.account.id;
    serviceId = reg.body.service.id;
    const second = await partner.post('/api/v1/my/services', {
      ...body.service,
      name: `Second ${tag}`,
    });
    expect(second.status).toBe(201);
    secondId = second.body.id;
    const vacancy = await partner.post(`/api/v1/my/services/${serviceId}/vacancies`, {
      name: `Barber ${tag}`,
      requirements: '',
      description: `Ask for ${body.account.firstName}`,
      salary: '',
      experience: 'any',
      isOpen: true,
    });
    expect(vacancy.status).toBe(201);
    expect(
      (
        await partner.post('/api/v1/auth/notifications', {
          endpoint: `https://push.invalid/push/${tag}`,
          keys: { p256dh: `p256dh-secret-${tag}`, auth: `auth-secret-${tag}` },
        })
      ).status,
    ).toBe(200);

    // Administrators act on the services: audit events, decision mails and pushes.
    expect((await admin.client.post(`/api/v1/admin/services/${serviceId}/approve`)).status).toBe(
      200,
    );
    expect(
      (
        await admin.client.post(`/api/v1/admin/services/${secondId}/decline`, {
          reason: `Not for ${body.account.lastName}`,
        })
      ).status,
    ).toBe(200);
    // The partner, logged in, reports another service; a visitor reports the partner's one.
    const filed = await partner.post('/api/v1/reports', {
      serviceId: otherServiceId,
      reason: 'other',
      description: `Filed by ${body.account.firstName} ${body.account.lastName}`,
    });
    expect(filed.status).toBe(201);
    const visitor = new TestClient(server.url);
    expect(
      (
        await visitor.post('/api/v1/reports', {
          serviceId,
          reason: 'other',
          description: `About ${tag}, call ${body.account.firstName}`,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await visitor.post(`/api/v1/services/${serviceId}/used`, {
          browserId: `browser-${tag}-0001`,
        })
      ).status,
    ).toBe(200);
    // A campaign to approved services reaches the partner.
    const campaign = await admin.client.post('/api/v1/admin/campaigns', {
      subject: 'News',
      content: 'Hello, partners.',
      statuses: ['approved'],
      categories: ['beauty_and_health'],
    });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    await smtp.waitFor(body.account.email);
    // And a mail still waiting in the outbox.
    await server.app.mail.outbox.enqueue(server.database.db, {
      to: body.account.email,
      locale: 'ua',
      template: 'welcome',
      params: { firstName: body.account.firstName, dashboardUrl: 'http://x/dashboard' },
      key: `later:${accountId}`,
    });
    await server.database.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() + 86_400_000) })
      .where(eq(mailOutbox.idempotencyKey, `later:${accountId}`));
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('exports the partner its own data as an attachment, without secrets', async () => {
    const res = await partner.get('/api/v1/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="poruch-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const data = accountExportSchema.parse(res.body);
    expect(data.account).toMatchObject({
      id: accountId,
      email: body.account.email,
      firstName: body.account.firstName,
      lastName: body.account.lastName,
    });
    expect(data.services.map((s) => s.id).sort()).toEqual([serviceId, secondId].sort());
    expect(data.vacancies.map((v) => v.name)).toEqual([`Barber ${tag}`]);
    expect(data.reports).toHaveLength(1);
    expect(data.reports[0]).toMatchObject({ serviceId: otherServiceId, reason: 'other' });
    expect(data.usedMarks).toEqual([{ serviceId, createdAt: expect.any(String) }]);
    expect(data.pushSubscriptions).toEqual([
      {
        id: expect.any(String),
        endpoint: `https://push.invalid/push/${tag}`,
        createdAt: expect.any(String),
      },
    ]);
    const templates = data.mail.map((m) => m.template);
    for (const t of ['welcome', 'serviceApproved', 'serviceDeclined', 'campaign']) {
      expect(templates).toContain(t);
    }
    // No secrets, and nobody else's data.
    const text = JSON.stringify(res.body);
    const [row] = await server.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, accountId));
    for (const secret of [
      row!.passwordHash,
      'scrypt$',
      'passwordHash',
      `p256dh-secret-${tag}`,
      `auth-secret-${tag}`,
      `browser-${tag}`,
      ...partner.cookies.values(),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(admin.email);
  });

  it('gives the export to nobody else', async () => {
    const visitor = new TestClient(server.url);
    await visitor.init();
    expect((await visitor.get('/api/v1/account/export')).status).toBe(401);
    const other = await loggedIn(server, 'PARTNER');
    const theirs = await other.client.get('/api/v1/account/export');
    expect(theirs.status).toBe(200);
    expect(theirs.body.account.id).toBe(other.id);
    expect(JSON.stringify(theirs.body)).not.toContain(tag);
    const admins = await admin.client.get('/api/v1/account/export');
    expect(admins.status).toBe(200);
    expect(JSON.stringify(admins.body)).not.toContain(tag);
    // There is no way to name another account.
    expect((await admin.client.get(`/api/v1/account/export?id=${accountId}`)).body.account.id).toBe(
      admin.id,
    );
  });

  it('is in the OpenAPI document', async () => {
    const doc = await new TestClient(server.url).get('/api/docs/json');
    expect(doc.status).toBe(200);
    const op = doc.body.paths['/api/v1/account/export']?.get;
    expect(op).toBeDefined();
    expect(op.responses['200']).toBeDefined();
  });

  it('erases the account everywhere, keeping only anonymous records', async () => {
    const db = server.database.db;
    const count = async (table: typeof reports | typeof auditLog) =>
      (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
    const reportsBefore = await count(reports);
    const auditBefore = await count(auditLog);

    const res = await partner.delete('/api/v1/account', {
      currentPassword: body.account.password,
    });
    expect(res.status).toBe(200);
    expect((await partner.get('/api/v1/my/services')).status).toBe(401);
    // The deletion notice reaches the address, then its row forgets it.
    await smtp.waitForMail(
      (m) =>
        [m.to].flat().some((a) => a?.value.some((v) => v.address === body.account.email)) &&
        /delet|видал/i.test(m.subject ?? ''),
    );
    await waitUntil(
      async () =>
        (
          await db
            .select({ id: mailOutbox.id })
            .from(mailOutbox)
            .where(sql`lower(${mailOutbox.recipient}) = ${body.account.email.toLowerCase()}`)
        ).length === 0,
      15_000,
      'the deletion notice to be delivered and erased',
    );

    // The records stay, anonymised.
    expect(await count(reports)).toBe(reportsBefore);
    expect(await count(auditLog)).toBe(auditBefore);

    // Every column of every table, searched for the account's e-mail, id, names and its
    // services' ids and names (the tag is in all of them).
    const needles = [tag, body.account.email, accountId, serviceId, secondId];
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await db.execute(sql`
        SELECT c.table_name, c.column_name FROM information_schema.columns c
          JOIN information_schema.tables t
            ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`),
    );
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name: t, column_name: c } of columns) {
      for (const needle of needles) {
        const [hit] = rowsOf<{ n: number }>(
          await db.execute(
            sql`SELECT count(*)::int AS n FROM ${sql.identifier(t)}
                 WHERE ${sql.identifier(c)}::text ILIKE ${`%${needle}%`}`,
          ),
        );
        if (Number(hit!.n) > 0) found.push(`${t}.${c} holds ${needle}`);
      }
    }
    expect(found).toEqual([]);

    // Somebody else's service and the catalogue are untouched; the tag finds nothing.
    const search = await new TestClient(server.url).get(`/api/v1/services?q=${tag}`);
    expect(search.status).toBe(200);
    expect(search.body.items).toEqual([]);
    expect(
      (await new TestClient(server.url).get(`/api/v1/services/${otherServiceId}`)).status,
    ).toBe(200);
  });
});
