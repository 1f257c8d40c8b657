import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, mailOutbox } from '../../db/schema.js';
import { loggedIn, partner } from '../../__tests__/helpers/actors.js';
import { TestClient } from '../../__tests__/helpers/client.js';
import { registration } from '../../__tests__/helpers/fixtures.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { startSmtp, type TestSmtp } from '../../__tests__/helpers/smtp.js';
import { insertOwners, waitUntil } from './helpers.js';

/** A header as it was sent (unfolded), not as mailparser interprets it. */
const header = (m: ParsedMail, name: string) => {
  const line = m.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
};
const listUnsubscribeUrl = (m: ParsedMail) =>
  /^<([^>]+)>$/.exec(header(m, 'list-unsubscribe') ?? '')?.[1];
const to = (m: ParsedMail) =>
  [m.to].flat().flatMap((a) => (a ? a.value.map((v) => v.address!.toLowerCase()) : []));

/** Mail through the outbox to a real SMTP server on loopback, parsed with mailparser. */
describe('mail', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let admin: Awaited<ReturnType<typeof loggedIn>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      MAIL_RATE_PER_MINUTE: '60000',
      MAIL_FROM: 'Поруч <hello@poruch.example>',
    });
    admin = await loggedIn(server, 'ADMIN');
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const mailsTo = (address: string) => smtp.messages.filter((m) => to(m).includes(address));

  it('mails a temporary password in the account locale, with a stable Message-ID, and it logs in', async () => {
    const body = registration({ locale: 'en_GB' });
    const browser = new TestClient(server.url);
    await browser.init();
    const reg = await browser.post('/api/v1/auth/register', body);
    expect(reg.status).toBe(201);
    const email = body.account.email;
    const welcome = await smtp.waitFor(email);
    expect(welcome.subject).toBe('Welcome to Poruch');
    expect(welcome.from?.text).toContain('hello@poruch.example');

    const stranger = new TestClient(server.url);
    await stranger.init();
    expect((await stranger.post('/api/v1/auth/reset-password', { email })).status).toBe(200);
    const mail = await waitUntil(
      () => mailsTo(email).find((m) => m.subject === 'Your temporary Poruch password'),
      10_000,
      'the reset mail',
    );
    const temp = /Temporary password: (\S+)/.exec(mail.text ?? '')?.[1];
    expect(temp).toBeTruthy();
    expect(mail.html).toContain(`Temporary password: ${temp}`);
    expect(mail.html).toContain('<a href="http://localhost:8080/login">');
    expect(header(mail, 'auto-submitted')).toBe('auto-generated');

    // The Message-ID is the one stored at enqueue time; the password left the database.
    const [row] = await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.messageId, mail.messageId!));
    expect(row).toMatchObject({ template: 'resetPassword', status: 'sent', attempts: 1 });
    expect(row!.messageId).toMatch(/^<[0-9a-f-]{36}@poruch\.example>$/);
    await waitUntil(async () => {
      const [r] = await server.database.db
        .select({ payload: mailOutbox.payload })
        .from(mailOutbox)
        .where(eq(mailOutbox.id, row!.id));
      return Object.keys(r!.payload).length === 0;
    });

    const login = await stranger.post('/api/v1/auth/login', { email, password: temp });
    expect(login.status).toBe(200);
  });

  it('tells the owner about approval and decline (mail in their locale) and every admin about a report', async () => {
    const owner = await partner(server); // Ukrainian
    const declined = await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/decline`, {
      reason: 'Немає адреси <b>точної</b>',
    });
    expect(declined.status).toBe(200);
    const declineMail = await waitUntil(
      () => mailsTo(owner.body.account.email).find((m) => m.subject?.includes('відхилено')),
      10_000,
      'the decline mail',
    );
    expect(declineMail.subject).toBe(`Сервіс «${owner.body.service.name}» відхилено`);
    expect(declineMail.text).toContain('Причина: Немає адреси <b>точної</b>');
    // The reason is text: escaped in HTML.
    expect(declineMail.html).toContain('Немає адреси &#60;b&#62;точної&#60;/b&#62;');

    expect(
      (await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status,
    ).toBe(200);
    const approveMail = await waitUntil(
      () => mailsTo(owner.body.account.email).find((m) => m.subject?.includes('схвалено')),
      10_000,
      'the approval mail',
    );
    expect(approveMail.text).toContain('http://localhost:8080/dashboard');

    // A partner mark notifies nobody.
    const before = mailsTo(owner.body.account.email).length;
    await admin.client.put(`/api/v1/admin/services/${owner.serviceId}/partner`, {
      isPartner: true,
    });

    const admin2 = await loggedIn(server, 'ADMIN');
    await server.database.db
      .update(accounts)
      .set({ locale: 'en_GB' })
      .where(eq(accounts.id, admin2.id));
    const reporter = new TestClient(server.url);
    const report = await reporter.post('/api/v1/reports', {
      serviceId: owner.serviceId,
      reason: 'no_contact',
      description: 'Телефон не відповідає',
    });
    expect(report.status).toBe(201);
    const ua = await waitUntil(() =>
      mailsTo(admin.email).find((m) => m.subject?.startsWith('Нова скарга')),
    );
    expect(ua.text).toContain('Причина: немає зв’язку');
    expect(ua.text).toContain('Опис: Телефон не відповідає');
    const en = await waitUntil(() =>
      mailsTo(admin2.email).find((m) => m.subject?.startsWith('New report')),
    );
    expect(en.text).toContain('Reason: no contact');
    expect(mailsTo(owner.body.account.email).length).toBe(before);
  });

  it('sends a campaign to matching owners once each, safely rendered, with one-click unsubscribe', async () => {
    const tag = Date.now();
    const e = (n: string) => `${n}-${tag}@example.org`;
    const ids = await insertOwners(server.database.db, [
      { email: e('a'), services: [{ status: 'approved', category: 'food' }] },
      // Two matching services: still one mail.
      {
        email: e('b'),
        locale: 'en_GB',
        services: [
          { status: 'approved', category: 'food' },
          { status: 'approved', category: 'food' },
        ],
      },
      { email: e('c'), services: [{ status: 'pending', category: 'food' }] },
      { email: e('d'), services: [{ status: 'approved', category: 'auto' }] },
      {
        email: e('e'),
        unsubscribed: true,
        services: [{ status: 'approved', category: 'food' }],
      },
      { email: e('f'), services: [{ status: 'declined', category: 'food' }] },
      { email: e('g'), services: [] },
    ]);
    // Other tests' owners have beauty_and_health services, so food only is ours.
    const input = { statuses: ['approved', 'declined'], categories: ['food'] };
    const count = await admin.client.post('/api/v1/admin/campaigns/recipients', input);
    expect(count.body).toEqual({ count: 3 });

    const content = [
      '# Новини',
      '',
      'Привіт! **Важливо**: <script>alert(1)</script>',
      '[сайт](https://poruch.example/news) і [погане](javascript:alert(1))',
      'другий рядок',
    ].join('\n');
    const created = await admin.client.post('/api/v1/admin/campaigns', {
      subject: 'Новини Поруч',
      content,
      ...input,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ subject: 'Новини Поруч', queued: 3, sent: 0, failed: 0 });
    const id = created.body.id as string;

    const expected = [e('a'), e('b'), e('f')];
    await waitUntil(
      () => expected.every((x) => mailsTo(x).some((m) => m.subject === 'Новини Поруч')),
      15_000,
      'campaign mails',
    );
    for (const x of [e('c'), e('d'), e('e'), e('g')]) expect(mailsTo(x)).toEqual([]);
    for (const x of expected) expect(mailsTo(x)).toHaveLength(1);

    const mail = mailsTo(e('a'))[0]!;
    expect(mail.html).toContain('<h1>Новини</h1>');
    expect(mail.html).toContain('<strong>Важливо</strong>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('<a href="https://poruch.example/news">сайт</a>');
    // Not a link: only http, https and mailto become links.
    expect(mail.html).not.toContain('href="javascript:');
    expect(mail.html).toContain('<br>');
    expect(mail.text).toContain('**Важливо**');
    expect(mail.text).toContain(
      'Відписатися від розсилок: http://localhost:8080/unsubscribe?token=',
    );
    expect(mailsTo(e('b'))[0]!.text).toContain('Unsubscribe from these e-mails:');
    expect(header(mail, 'precedence')).toBe('bulk');

    // RFC 8058: List-Unsubscribe with an https/http URL, and List-Unsubscribe-Post.
    const listUnsubscribe = { url: listUnsubscribeUrl(mail)! };
    expect(listUnsubscribe.url).toMatch(
      /^http:\/\/localhost:8080\/api\/v1\/unsubscribe\?token=[0-9a-f-]{36}\.[\w-]+$/,
    );
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const token = new URL(listUnsubscribe.url).searchParams.get('token')!;
    expect(token.startsWith(ids.get(e('a'))!)).toBe(true);
    expect(mail.text).toContain(`/unsubscribe?token=${token}`);

    // Progress.
    const progress = await waitUntil(async () => {
      const res = await admin.client.get(`/api/v1/admin/campaigns/${id}`);
      return res.body.sent === 3 ? res.body : null;
    });
    expect(progress).toMatchObject({ queued: 3, sent: 3, failed: 0, categories: ['food'] });
    const list = await admin.client.get('/api/v1/admin/campaigns');
    expect(list.body.items[0]).toMatchObject({ id, sent: 3 });
    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'campaign.send'));
    expect(audit.find((a) => a.targetId === id)?.details).toMatchObject({ recipients: 3 });

    // One-click: a form POST from the mail provider, no cookie, no anti-forgery token.
    const oneClick = await fetch(listUnsubscribe.url.replace('http://localhost:8080', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ status: true, message: 'unsubscribe_succeeded' });
    const [a] = await server.database.db
      .select({ unsubscribed: accounts.unsubscribed })
      .from(accounts)
      .where(eq(accounts.id, ids.get(e('a'))!));
    expect(a!.unsubscribed).toBe(true);
    expect((await admin.client.post('/api/v1/admin/campaigns/recipients', input)).body.count).toBe(
      2,
    );

    // A tampered token fails and changes nothing.
    const bToken = new URL(listUnsubscribeUrl(mailsTo(e('b'))[0]!)!).searchParams.get('token')!;
    const forged = `${ids.get(e('f'))}.${bToken.split('.')[1]}`;
    for (const bad of [forged, `${bToken}x`, 'nonsense', '']) {
      const res = await fetch(`${server.url}/api/v1/unsubscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: bad }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: 400,
        errors: { message: 'bad_request' },
        error: { message: 'unsubscribe_failed' },
        status: false,
        message: 'unsubscribe_failed',
      });
    }
    const still = await server.database.db
      .select({ unsubscribed: accounts.unsubscribed })
      .from(accounts)
      .where(eq(accounts.id, ids.get(e('f'))!));
    expect(still[0]!.unsubscribed).toBe(false);

    // The link of the mail body (GET), as the site's unsubscribe page or a browser opens it.
    const viaGet = await fetch(`${server.url}/api/v1/unsubscribe?token=${bToken}`);
    expect(await viaGet.json()).toEqual({ status: true, message: 'unsubscribe_succeeded' });
    expect((await admin.client.post('/api/v1/admin/campaigns/recipients', input)).body.count).toBe(
      1,
    );
  });

  it('sends a test campaign to the administrator only', async () => {
    const before = smtp.messages.length;
    const res = await admin.client.post('/api/v1/admin/campaigns', {
      subject: 'Тест розсилки',
      content: 'Лише мені',
      statuses: ['approved'],
      categories: [],
      sendToSelf: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ queued: 1, sendToSelf: true });
    const mail = await waitUntil(() =>
      mailsTo(admin.email).find((m) => m.subject === 'Тест розсилки'),
    );
    expect(listUnsubscribeUrl(mail)).toContain('/api/v1/unsubscribe?token=');
    // The campaign made one mail, to the administrator, and it is the one that arrived.
    const rows = await server.database.db
      .select({ recipient: mailOutbox.recipient, status: mailOutbox.status })
      .from(mailOutbox)
      .where(eq(mailOutbox.campaignId, res.body.id));
    expect(rows).toEqual([{ recipient: admin.email, status: 'sent' }]);
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('refuses campaigns to non-administrators and checks the input', async () => {
    const p = await loggedIn(server, 'PARTNER');
    expect(
      (await p.client.post('/api/v1/admin/campaigns', { subject: 'x', content: 'y' })).status,
    ).toBe(403);
    const bad = await admin.client.post('/api/v1/admin/campaigns', {
      subject: '',
      content: 'y',
      statuses: ['nope'],
    });
    expect(bad.status).toBe(400);
  });

  it('gives the VAPID public key in /env', async () => {
    const env = await new TestClient(server.url).get('/env');
    expect(env.body.vapidPublicKey).toMatch(/^[\w-]{80,90}$/);
  });
});
