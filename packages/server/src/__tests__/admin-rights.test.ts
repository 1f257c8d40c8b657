/**
 * Administrators and the audit log, over HTTP on a real database: the super administrators'
 * list and role changes (never the last super administrator, also under two concurrent
 * demotions), who may call them, and the audit log's entries, filters and paging.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@poruch/core';
import { accounts, auditLog, sessions } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { hashToken, randomToken } from '../lib/tokens.js';
import { partner } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MAIL_WORKER: 'false' });
});
afterAll(() => server?.close());

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres';
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** No super administrator left over from another test: each test makes its own. */
async function noSuperAdmins() {
  await server.database.db
    .update(accounts)
    .set({ isSuper: false })
    .where(eq(accounts.isSuper, true));
}
const superCount = async () =>
  Number(
    rowsOf<{ n: string }>(
      await server.database.db.execute(
        sql`SELECT count(*) AS n FROM accounts WHERE type = 'ADMIN' AND is_super`,
      ),
    )[0]!.n,
  );
const PASSWORD = 'test password 123';
let passwordHash: Promise<string> | undefined;
let n = 0;

/**
 * A browser logged in as a new account: the account and its session row are written directly
 * (the same rows a login makes), so the tests do not pay a password hash per login.
 */
async function loggedIn(
  srv: TestServer,
  type: 'ADMIN' | 'PARTNER',
  options: { isSuper?: boolean } = {},
) {
  passwordHash ??= hashPassword(PASSWORD);
  const email = `${type.toLowerCase()}${++n}-${Date.now()}@example.org`;
  const [row] = await srv.database.db
    .insert(accounts)
    .values({
      email,
      passwordHash: await passwordHash,
      type,
      isSuper: !!options.isSuper,
      firstName: type,
    })
    .returning();
  const token = randomToken();
  await srv.database.db.insert(sessions).values({
    tokenHash: hashToken(token),
    accountId: row!.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const client = new TestClient(srv.url);
  client.cookies.set('poruch_session', token);
  await client.init();
  return { client, id: row!.id, email };
}
const superAdmin = () => loggedIn(server, 'ADMIN', { isSuper: true });
const role = (client: TestClient, id: string, to: string) =>
  client.put(`/api/v1/admin/administrators/${id}/role`, { role: to });

describe('administrators', () => {
  beforeEach(noSuperAdmins);

  it('lists every administrator, super administrators first, to super administrators only', async () => {
    const root = await superAdmin();
    const plain = await loggedIn(server, 'ADMIN');
    const someone = await loggedIn(server, 'PARTNER');
    const list = await root.client.get('/api/v1/admin/administrators');
    expect(list.status).toBe(200);
    const emails = list.body.items.map((a: any) => a.email);
    expect(emails[0]).toBe(root.email);
    expect(emails).toContain(plain.email);
    expect(emails).not.toContain(someone.email);
    expect(list.body.items[0]).toEqual({
      id: root.id,
      email: root.email,
      firstName: 'ADMIN',
      lastName: '',
      isSuper: true,
      createdAt: expect.any(String),
    });

    for (const [client, status, key] of [
      [plain.client, 403, 'forbidden'],
      [someone.client, 403, 'forbidden'],
      [new TestClient(server.url), 401, 'unauthorized'],
    ] as const) {
      const res = await client.get('/api/v1/admin/administrators');
      expect(res.status).toBe(status);
      expect(res.body.errors.message).toBe(key);
      const change = await role(client, plain.id, 'super');
      expect(change.status).toBe(status);
    }
    // Nothing changed, nothing audited.
    const [row] = await server.database.db.select().from(accounts).where(eq(accounts.id, plain.id));
    expect(row!.isSuper).toBe(false);
  });

  it('promotes, demotes and removes rights, each audited; removal ends admin access at once', async () => {
    const root = await superAdmin();
    const other = await loggedIn(server, 'ADMIN');

    const promoted = await role(root.client, other.id, 'super');
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: other.id, type: 'ADMIN', isSuper: true });
    const demoted = await role(root.client, other.id, 'admin');
    expect(demoted.body).toMatchObject({ type: 'ADMIN', isSuper: false });
    // The same role again changes nothing and records nothing.
    expect((await role(root.client, other.id, 'admin')).status).toBe(200);

    // The other administrator's session works until the removal, and not a request after.
    expect((await other.client.get('/api/v1/admin/reports')).status).toBe(200);
    const removed = await role(root.client, other.id, 'none');
    expect(removed.body).toMatchObject({ type: 'PARTNER', isSuper: false });
    const after = await other.client.get('/api/v1/admin/reports');
    expect(after.status).toBe(403);
    expect((await other.client.get('/api/v1/auth/check')).body.account).toMatchObject({
      type: 'PARTNER',
    });
    // An account that is not an administrator (any more) is not found here.
    expect((await role(root.client, other.id, 'admin')).status).toBe(404);
    expect(
      (await role(root.client, '00000000-0000-4000-8000-000000000000', 'admin')).body.errors
        .message,
    ).toBe('resource_was_not_found');

    const log = await root.client.get(`/api/v1/admin/audit?target=${other.id}`);
    expect(
      log.body.items.map((e: any) => [e.action, e.details, e.actor.id, e.targetLabel]),
    ).toEqual([
      ['admin.remove', { from: 'admin', to: 'none' }, root.id, other.email],
      ['admin.demote', { from: 'super', to: 'admin' }, root.id, other.email],
      ['admin.promote', { from: 'admin', to: 'super' }, root.id, other.email],
    ]);
  });

  it('refuses bad input with the validation message, and a change without the anti-forgery token', async () => {
    const root = await superAdmin();
    const other = await loggedIn(server, 'ADMIN');
    const bad = await role(root.client, other.id, 'owner');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.fields).toEqual([
      { field: 'role', key: 'validation.invalid', params: { name: 'role' } },
    ]);
    expect(
      (await root.client.put('/api/v1/admin/administrators/nope/role', { role: 'admin' })).status,
    ).toBe(400);
    const forged = await root.client.put(
      `/api/v1/admin/administrators/${other.id}/role`,
      { role: 'super' },
      { csrf: false },
    );
    expect(forged.status).toBe(403);
    expect(forged.body.errors.message).toBe('csrf_token_invalid');
  });

  it('never demotes, removes or deletes the last super administrator; with two, one may go', async () => {
    const root = await superAdmin();
    for (const to of ['admin', 'none']) {
      const res = await role(root.client, root.id, to);
      expect(res.status).toBe(409);
      expect(res.body.errors.message).toBe('last_super_admin');
    }
    const deletion = await root.client.delete('/api/v1/account', {
      currentPassword: PASSWORD,
    });
    expect(deletion.status).toBe(409);
    expect(deletion.body.errors.message).toBe('last_super_admin');
    expect(await superCount()).toBe(1);

    // With a second super administrator, the first may step down to administrator; then the
    // second is the last one.
    const second = await superAdmin();
    expect((await role(root.client, root.id, 'admin')).status).toBe(200);
    expect((await role(second.client, second.id, 'none')).status).toBe(409);
    // The one who stepped down has no super rights from the next request on.
    expect((await root.client.get('/api/v1/admin/administrators')).status).toBe(403);
    expect((await root.client.get('/api/v1/admin/reports')).status).toBe(200);
    // A super administrator removing their own rights, not the last: allowed, and at once.
    const third = await superAdmin();
    expect((await role(third.client, third.id, 'none')).status).toBe(200);
    expect((await third.client.get('/api/v1/admin/reports')).status).toBe(403);
    expect(await superCount()).toBe(1);
  });

  it('keeps one super administrator when two demote each other at the same time', async () => {
    // Each demotes the other, then each steps down.
    for (const crossed of [false, true, false, true]) {
      await noSuperAdmins();
      const a = await superAdmin();
      const b = await superAdmin();
      const race = Promise.all([
        role(a.client, crossed ? b.id : a.id, 'none'),
        role(b.client, crossed ? a.id : b.id, 'admin'),
      ]);
      if (onPostgres) {
        // Both requests are made to wait on the super administrators' rows, so their
        // transactions overlap for certain; then they are let go together.
        await server.database.db.transaction(async (tx) => {
          await tx.execute(
            sql`SELECT id FROM accounts WHERE type = 'ADMIN' AND is_super FOR UPDATE`,
          );
          const waiting = async () =>
            rowsOf<{ wait: string | null; query: string }>(
              await server.database.db.execute(sql`SELECT wait_event_type AS wait, query
                FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`),
            );
          for (let i = 0; ; i++) {
            const activity = await waiting();
            if (activity.filter((a) => a.wait === 'Lock').length >= 2) break;
            if (i === 500) throw new Error(`the requests do not wait: ${JSON.stringify(activity)}`);
            await new Promise((r) => setTimeout(r, 20));
          }
        });
      }
      const statuses = (await race).map((r) => r.status).sort();
      expect(await superCount()).toBe(1);
      // One wins; the other is refused as the last, or has lost its own rights already.
      expect([
        [200, 409],
        [200, 403],
      ]).toContainEqual(statuses);
    }
  });
});

describe('audit log', () => {
  it('names every action, target and actor, and filters and pages them', async () => {
    await noSuperAdmins();
    const root = await superAdmin();
    const admin = await loggedIn(server, 'ADMIN');
    const owner = await partner(server);
    const serviceName = owner.body.service.name as string;
    await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/approve`);
    await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/decline`, {
      reason: 'Адреса не існує',
    });
    await admin.client.put(`/api/v1/admin/services/${owner.serviceId}/partner`, {
      isPartner: true,
    });
    const added = await root.client.post('/api/v1/admin/administrators', {
      email: `audit-new-${Date.now()}@example.org`,
      firstName: 'Нова',
    });
    await role(root.client, added.body.account.id, 'super');

    const all = await root.client.get('/api/v1/admin/audit');
    expect(all.status).toBe(200);
    for (const e of all.body.items) expect(AUDIT_ACTIONS).toContain(e.action);

    const byActor = await root.client.get(
      `/api/v1/admin/audit?actor=${encodeURIComponent(admin.email.slice(0, 12))}`,
    );
    expect(byActor.body.items.map((e: any) => e.action)).toEqual([
      'service.partner_mark',
      'service.decline',
      'service.approve',
    ]);
    expect(byActor.body.items[1]).toMatchObject({
      actor: { id: admin.id, email: admin.email },
      targetType: 'service',
      targetId: owner.serviceId,
      targetLabel: serviceName,
      details: { reason: 'Адреса не існує' },
    });
    expect((await root.client.get(`/api/v1/admin/audit?actor=${admin.id}`)).body.total).toBe(3);

    // The target: part of a service's name, part of an account's e-mail, or an id.
    const byName = await root.client.get(
      `/api/v1/admin/audit?target=${encodeURIComponent(serviceName.slice(2, 9).toUpperCase())}`,
    );
    expect(byName.body.total).toBe(3);
    const byEmail = await root.client.get(
      `/api/v1/admin/audit?target=${encodeURIComponent(added.body.account.email)}`,
    );
    expect(byEmail.body.items.map((e: any) => e.action)).toEqual(['admin.promote', 'admin.create']);
    // LIKE's wildcards are plain characters.
    expect((await root.client.get('/api/v1/admin/audit?target=%25%25')).body.total).toBe(0);

    const declines = await root.client.get('/api/v1/admin/audit?action=service.decline');
    expect(declines.body.items.every((e: any) => e.action === 'service.decline')).toBe(true);
    const accountsOnly = await root.client.get('/api/v1/admin/audit?targetType=account');
    expect(accountsOnly.body.items.every((e: any) => e.targetType === 'account')).toBe(true);

    // Date range: from inclusive, to exclusive.
    const [first] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorId, admin.id))
      .orderBy(auditLog.createdAt)
      .limit(1);
    const at = first!.createdAt.toISOString();
    const fromFirst = await root.client.get(
      `/api/v1/admin/audit?actor=${admin.id}&from=${encodeURIComponent(at)}`,
    );
    expect(fromFirst.body.total).toBe(3);
    const beforeFirst = await root.client.get(
      `/api/v1/admin/audit?actor=${admin.id}&to=${encodeURIComponent(at)}`,
    );
    expect(beforeFirst.body.total).toBe(0);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (await root.client.get(`/api/v1/admin/audit?from=${encodeURIComponent(future)}`)).body.total,
    ).toBe(0);

    // Paging: newest first, the same order page after page.
    const whole = await root.client.get(`/api/v1/admin/audit?actor=${admin.id}&pageSize=3`);
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const res = await root.client.get(
        `/api/v1/admin/audit?actor=${admin.id}&pageSize=1&page=${page}`,
      );
      expect(res.body).toMatchObject({ total: 3, page, pageSize: 1 });
      pages.push(res.body.items[0].id);
    }
    expect(pages).toEqual(whole.body.items.map((e: any) => e.id));
  });

  it('answers bad filters with a translated validation message, never a 500', async () => {
    const { client } = await loggedIn(server, 'ADMIN');
    const cases: [string, string][] = [
      ['action=service.delete', 'action'],
      ['targetType=vacancy', 'targetType'],
      ['from=yesterday', 'from'],
      ['pageSize=1000', 'pageSize'],
      ['page=0', 'page'],
      ['extra=1', 'extra'],
      [`actor=${'x'.repeat(201)}`, 'actor'],
    ];
    for (const [query, field] of cases) {
      const res = await client.get(`/api/v1/admin/audit?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errors.message).toBe('validation_failed');
      expect(res.body.errors.fields.map((f: any) => f.field)).toContain(field);
    }
    const reversed = await client.get(
      `/api/v1/admin/audit?from=${encodeURIComponent('2026-02-01T00:00:00+01:00')}&to=${encodeURIComponent('2026-01-01T00:00:00Z')}`,
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors.fields).toEqual([
      { field: 'to', key: 'validation.date_range', params: { name: 'to' } },
    ]);
    const partnerClient = (await loggedIn(server, 'PARTNER')).client;
    expect((await partnerClient.get('/api/v1/admin/audit')).status).toBe(403);
    expect((await new TestClient(server.url).get('/api/v1/admin/audit')).status).toBe(401);
  });
});
