import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, mailOutbox, pushSubscriptions, services, sessions } from '../db/schema.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

/** The partner's whole life over HTTP: register, log in, update, change credentials, reset, delete. */
describe('partner account lifecycle', () => {
  let server: TestServer;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('registers, logs in, updates, changes credentials, resets, logs out and deletes', async () => {
    const browser = new TestClient(server.url);
    const check0 = await browser.init();
    expect(check0.status).toBe(200);
    expect(check0.body).toEqual({ status: false, account: null });

    // Registration: account and first service, pending; the browser is logged in.
    const body = registration();
    const email = body.account.email;
    const reg = await browser.post('/api/v1/auth/register', body);
    expect(reg.status).toBe(201);
    expect(reg.body.account).toMatchObject({
      email,
      type: 'PARTNER',
      isSuper: false,
      firstName: 'Оксана',
    });
    expect(reg.body.account).not.toHaveProperty('passwordHash');
    expect(reg.body.service).toMatchObject({
      name: body.service.name,
      status: 'pending',
      ownerId: reg.body.account.id,
    });
    const welcome = await smtp.waitFor(email);
    expect(welcome.subject).toBe('Вітаємо в Поруч');

    // The same address again: email_is_used, whatever its case.
    const other = new TestClient(server.url);
    await other.init();
    const again = await other.post(
      '/api/v1/auth/register',
      registration({ email: email.toUpperCase() }),
    );
    expect(again.status).toBe(409);
    expect(again.body.errors.message).toBe('email_is_used');

    // A fresh browser logs in and passes auth/check.
    const laptop = new TestClient(server.url);
    await laptop.init();
    const bad = await laptop.post('/api/v1/auth/login', { email, password: 'wrong password' });
    expect(bad.status).toBe(401);
    expect(bad.body.errors.message).toBe('wrong_user_or_password');
    const login = await laptop.post('/api/v1/auth/login', {
      email: email.toUpperCase(),
      password: body.account.password,
    });
    expect(login.status).toBe(200);
    expect(login.body.email).toBe(email);
    const check = await laptop.get('/api/v1/auth/check');
    expect(check.body).toMatchObject({ status: true, account: { email } });

    // Personal data.
    const upd = await laptop.put('/api/v1/auth/update', {
      firstName: 'Олена',
      phone: '+44 20 7946 0000',
      locale: 'en_GB',
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      firstName: 'Олена',
      phone: '+44 20 7946 0000',
      locale: 'en_GB',
      lastName: 'Шевченко',
    });

    // Credentials change needs the current password.
    const wrongCurrent = await laptop.put('/api/v1/auth/credentials', {
      currentPassword: 'nope nope nope',
      newPassword: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body.errors.message).toBe('wrong_current_password');
    const newEmail = `moved-${email}`;
    const changed = await laptop.put('/api/v1/auth/credentials', {
      currentPassword: body.account.password,
      email: newEmail,
      newPassword: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe(newEmail);
    // The notice goes to the old address, in the account's (new) locale.
    const notice = await smtp.waitForMail(
      (m) => m.subject === 'Your Poruch login details were changed',
    );
    expect(notice?.text).toContain(newEmail);
    // Every other session ended; the browser that changed them stays logged in.
    expect((await browser.get('/api/v1/auth/check')).body.status).toBe(false);
    expect((await laptop.get('/api/v1/auth/check')).body.status).toBe(true);
    const phone = new TestClient(server.url);
    await phone.init();
    expect(
      (await phone.post('/api/v1/auth/login', { email, password: body.account.password })).status,
    ).toBe(401);
    expect(
      (await phone.post('/api/v1/auth/login', { email: newEmail, password: 'a brand new secret' }))
        .status,
    ).toBe(200);

    // Reset: a temporary password is mailed; the old password keeps working until it is used.
    const stranger = new TestClient(server.url);
    await stranger.init();
    const reset = await stranger.post('/api/v1/auth/reset-password', { email: newEmail });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ status: true });
    const resetMail = await smtp.waitFor(newEmail);
    expect(resetMail.subject).toBe('Your temporary Poruch password');
    const temp = /Temporary password: (\S+)/.exec(resetMail.text ?? '')?.[1];
    expect(temp).toMatch(/^[A-Za-z2-9]{12}$/);
    expect(resetMail.html).toContain(temp!);
    const stillOld = new TestClient(server.url);
    await stillOld.init();
    expect(
      (
        await stillOld.post('/api/v1/auth/login', {
          email: newEmail,
          password: 'a brand new secret',
        })
      ).status,
    ).toBe(200);
    const withTemp = new TestClient(server.url);
    await withTemp.init();
    const tempLogin = await withTemp.post('/api/v1/auth/login', {
      email: newEmail,
      password: temp,
    });
    expect(tempLogin.status).toBe(200);
    // Using it made it the password: the old one and the other sessions are gone.
    expect((await stillOld.get('/api/v1/auth/check')).body.status).toBe(false);
    const after = new TestClient(server.url);
    await after.init();
    expect(
      (await after.post('/api/v1/auth/login', { email: newEmail, password: 'a brand new secret' }))
        .status,
    ).toBe(401);

    // Push subscription for the logged-in account.
    const sub = await withTemp.post('/api/v1/auth/notifications', {
      endpoint: 'https://push.example.org/send/abc',
      keys: { p256dh: 'BNcR', auth: 'tBHI' },
    });
    expect(sub.status).toBe(200);

    // Logout ends the session on the server, not only in the browser.
    const token = withTemp.cookies.get('poruch_session')!;
    const out = await withTemp.get('/api/v1/auth/logout');
    expect(out.body).toEqual({ status: false });
    expect((await withTemp.get('/api/v1/auth/check')).body.status).toBe(false);
    const replay = new TestClient(server.url);
    replay.cookies.set('poruch_session', token);
    expect((await replay.get('/api/v1/auth/check')).body.status).toBe(false);

    // Deletion needs the password and removes account, services, sessions and subscriptions.
    const last = new TestClient(server.url);
    await last.init();
    await last.post('/api/v1/auth/login', { email: newEmail, password: temp });
    const accountId = (await last.get('/api/v1/auth/check')).body.account.id as string;
    const refused = await last.delete('/api/v1/account', { currentPassword: 'not it at all' });
    expect(refused.status).toBe(400);
    const deleted = await last.delete('/api/v1/account', { currentPassword: temp });
    expect(deleted.status).toBe(200);
    expect((await last.get('/api/v1/auth/check')).body.status).toBe(false);
    const db = server.database.db;
    expect(await db.select().from(accounts).where(eq(accounts.id, accountId))).toHaveLength(0);
    expect(await db.select().from(services).where(eq(services.ownerId, accountId))).toHaveLength(0);
    expect(await db.select().from(sessions).where(eq(sessions.accountId, accountId))).toHaveLength(
      0,
    );
    expect(
      await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.accountId, accountId)),
    ).toHaveLength(0);
    const gone = new TestClient(server.url);
    await gone.init();
    expect(
      (await gone.post('/api/v1/auth/login', { email: newEmail, password: temp })).status,
    ).toBe(401);
    const byeMail = await smtp.waitForMail((m) => m.subject === 'Your Poruch account was deleted');
    expect(byeMail).toBeDefined();
  });

  it('answers a reset for an unknown address exactly like a known one, and mails nothing', async () => {
    const client = new TestClient(server.url);
    await client.init();
    // Mail of earlier tests is delivered asynchronously: let the outbox drain first.
    const pending = async () =>
      (
        await server.database.db
          .select({ id: mailOutbox.id })
          .from(mailOutbox)
          .where(inArray(mailOutbox.status, ['queued', 'sending']))
      ).length;
    await expect.poll(pending, { timeout: 10_000 }).toBe(0);
    const before = smtp.messages.length;
    const rows = async () => (await server.database.db.select().from(mailOutbox)).length;
    const rowsBefore = await rows();
    const res = await client.post('/api/v1/auth/reset-password', {
      email: 'nobody-here@example.org',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    // Mail is queued in the request's transaction: no new row when it answered, no mail ever.
    expect(await rows()).toBe(rowsBefore);
    expect(await pending()).toBe(0);
    expect(smtp.messages.length).toBe(before);
  });

  it('refuses a temporary password after it expires', async () => {
    const client = new TestClient(server.url);
    await client.init();
    const body = registration();
    await client.post('/api/v1/auth/register', body);
    await client.post('/api/v1/auth/reset-password', { email: body.account.email });
    const mail = await smtp.waitForMail(
      (m) =>
        m.subject === 'Тимчасовий пароль до Поруч' &&
        !!m.text?.includes('Тимчасовий пароль:') &&
        [m.to].flat().some((a) => a?.text.includes(body.account.email)),
    );
    const temp = /Тимчасовий пароль: (\S+)/.exec(mail?.text ?? '')?.[1];
    expect(temp).toBeTruthy();
    await server.database.db
      .update(accounts)
      .set({ tempPasswordExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(accounts.email, body.account.email));
    const other = new TestClient(server.url);
    await other.init();
    expect(
      (await other.post('/api/v1/auth/login', { email: body.account.email, password: temp }))
        .status,
    ).toBe(401);
    expect(
      (
        await other.post('/api/v1/auth/login', {
          email: body.account.email,
          password: body.account.password,
        })
      ).status,
    ).toBe(200);
  });
});
