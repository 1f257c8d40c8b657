import { eq, sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONFIRMATION, type LocaleCode, type MapResult, type ServicePage } from '@poruch/core';
import { services } from '../db/schema.js';
import { unsubscribeToken } from '../mail/unsubscribe.js';
import { reconfirmToken } from '../reconfirm/index.js';
import { loggedIn } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const DAY = 24 * 60 * 60_000;
/** Every time here is an offset from T0, the approval; the server's clock is `clock`. */
const T0 = new Date('2026-01-10T09:00:00.000Z');
const MAIL_AT = new Date('2027-01-10T09:00:00.000Z');
const afterMail = (days: number) => new Date(MAIL_AT.getTime() + days * DAY);
let clock = T0;

let server: TestServer;
let smtp: TestSmtp;
let admin: TestClient;
const web = () => new TestClient(server.url);

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer(
    {
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      PUBLIC_URL: 'https://poruch.example.org',
      RECONFIRM_INTERVAL_MS: String(24 * 3600_000),
      ALERT_DIGESTS: 'false',
    },
    undefined,
    { now: () => clock },
  );
  admin = (await loggedIn(server, 'ADMIN')).client;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** A partner's service approved at `clock`, with the partner's browser and address. */
async function approvedService(name: string, locale: LocaleCode = 'ua') {
  const client = new TestClient(server.url);
  await client.init();
  const body = registration({ locale });
  body.service.name = name;
  const res = await client.post('/api/v1/auth/register', body);
  expect(res.status).toBe(201);
  const id = res.body.service.id as string;
  expect((await admin.post(`/api/v1/admin/services/${id}/approve`)).status).toBe(200);
  return { id, client, email: body.account.email };
}

/** The job's run at `at` (the app's clock), as the periodic loop makes it. */
async function runAt(at: Date) {
  clock = at;
  return server.app.reconfirmJob!.runOnce();
}

const mailOf = (email: string, subject: RegExp): Promise<ParsedMail> => {
  server.app.mail.worker?.wake();
  return smtp.waitForMail(
    (m) =>
      [m.to].flat().some((a) => a?.value.some((v) => v.address === email.toLowerCase())) &&
      subject.test(m.subject ?? ''),
  );
};

const linkIn = (mail: ParsedMail, path: string) => {
  const url = new RegExp(`https://poruch\\.example\\.org${path}[^\\s"<]*`).exec(mail.text ?? '');
  expect(url, `${path} in ${mail.text}`).not.toBeNull();
  return url![0];
};

const queued = async (id: string) =>
  (
    (await server.database.db.execute(
      sql`SELECT template FROM mail_outbox
        WHERE template LIKE 'reconfirm%' AND idempotency_key LIKE ${`%:${id}:%`} ORDER BY template`,
    )) as unknown as { rows: { template: string }[] }
  ).rows.map((r) => r.template);

const row = async (id: string) =>
  (await server.database.db.select().from(services).where(eq(services.id, id)))[0]!;

/** POST reconfirm from a browser with no session and no anti-forgery token. */
const oneClick = (token: string) =>
  fetch(`${server.url}/api/v1/reconfirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('yearly re-confirmation', () => {
  it('mails the owner at 12 months with both links and reminds at +14 days, each once, also with two runs at once', async () => {
    clock = T0;
    const ua = await approvedService('Пекарня «Рік»');
    const en = await approvedService('Bakery Year', 'en_GB');
    expect((await row(ua.id)).confirmedAt).toEqual(T0);

    expect((await runAt(new Date(MAIL_AT.getTime() - 60_000))).mailed).toBe(0);
    // Two runs at once (two instances): each mail is claimed by one of them.
    clock = MAIL_AT;
    const [a, b] = await Promise.all([
      server.app.reconfirmJob!.runOnce(),
      server.app.reconfirmJob!.runOnce(),
    ]);
    expect(a.mailed + b.mailed).toBe(2);

    const mail = await mailOf(ua.email, /^Чи працює ще «Пекарня «Рік»»\?$/);
    expect(mail.text).toContain(
      'Останнє підтвердження вашого сервісу «Пекарня «Рік»»: січень 2026 р.',
    );
    const confirmUrl = linkIn(mail, '/confirm-service\\?token=');
    expect(confirmUrl).toContain('&lang=ua');
    expect(linkIn(mail, '/dashboard/services/')).toBe(
      `https://poruch.example.org/dashboard/services/${ua.id}`,
    );
    const english = await mailOf(en.email, /^Is "Bakery Year" still running\?$/);
    expect(english.text).toContain('was last confirmed in January 2026');
    expect(english.text).toContain('no login needed');
    expect(linkIn(english, '/confirm-service\\?token=')).toContain('&lang=en_GB');

    expect((await runAt(afterMail(RECONFIRMATION.reminderDays - 1))).reminded).toBe(0);
    clock = afterMail(RECONFIRMATION.reminderDays);
    const [c, d] = await Promise.all([
      server.app.reconfirmJob!.runOnce(),
      server.app.reconfirmJob!.runOnce(),
    ]);
    expect(c.reminded + d.reminded).toBe(2);
    await mailOf(ua.email, /^Нагадування: чи працює ще «Пекарня «Рік»»\?$/);
    await mailOf(en.email, /^Reminder: is "Bakery Year" still running\?$/);
    const later = await runAt(afterMail(20));
    expect(later.mailed + later.reminded).toBe(0);
    expect(await queued(ua.id)).toEqual(['reconfirm', 'reconfirmReminder']);

    // The one-click link, from a browser with no session: forged and expired links are refused.
    const token = new URL(confirmUrl).searchParams.get('token')!;
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await oneClick(forged)).toMatchObject({
      status: 400,
      body: { errors: { message: 'reconfirm_link_invalid' } },
    });
    // Another link's signature is no re-confirmation link.
    expect(
      (await oneClick(unsubscribeToken(server.app.mail.unsubscribeSecret, ua.id))).status,
    ).toBe(400);
    clock = new Date(MAIL_AT.getTime() + 400 * DAY);
    expect(await oneClick(token)).toMatchObject({
      status: 400,
      body: { errors: { message: 'reconfirm_link_expired' } },
    });
    clock = afterMail(21);
    const ok = await oneClick(token);
    expect(ok).toMatchObject({
      status: 200,
      body: { id: ua.id, confirmedAt: clock.toISOString() },
    });
    expect(await row(ua.id)).toMatchObject({
      confirmedAt: clock,
      reconfirmMailedAt: null,
      reconfirmRemindedAt: null,
      confirmation: 'current',
    });
    // Opened again, later: already done, nothing changes.
    const confirmedAt = clock;
    clock = afterMail(22);
    expect((await oneClick(token)).body.confirmedAt).toBe(confirmedAt.toISOString());
    expect((await row(ua.id)).confirmedAt).toEqual(confirmedAt);
    // A link for a service that is gone is refused.
    const gone = reconfirmToken(
      server.app.mail.unsubscribeSecret,
      '00000000-0000-4000-8000-000000000000',
      T0,
      clock,
    );
    expect((await oneClick(gone)).status).toBe(400);
    clock = afterMail(21);
    // A new cycle: the next mail is a year after this confirmation.
    expect((await runAt(afterMail(60))).mailed).toBe(0);
  });

  it('labels an unconfirmed service after 30 days and ranks it below, hides it after 90 from search, map, sitemap and profile, and brings it back on confirming', async () => {
    await server.database.db.execute(sql`UPDATE services SET status = 'declined'`);
    clock = T0;
    const steady = await approvedService('Кав’ярня Затишок');
    // Newer (created later) and the same name: first until it is overdue.
    const late = await approvedService('Кав’ярня Затишок');
    const vacancy = await late.client.post(`/api/v1/my/services/${late.id}/vacancies`, {
      name: 'Бариста Затишок',
      experience: 'any',
    });
    expect(vacancy.status).toBe(201);
    // The steady one is confirmed by its owner's edit... (approved again the same day).
    clock = new Date(MAIL_AT.getTime() - 10 * DAY);
    expect((await steady.client.post(`/api/v1/my/services/${steady.id}/confirm`)).status).toBe(200);

    const search = async (q = '') =>
      (
        (await web().get(`/api/v1/services?q=${encodeURIComponent(q)}&country=PL`))
          .body as ServicePage
      ).items;
    const ids = async (q?: string) => (await search(q)).map((s) => s.id);
    const vacancyIds = async () =>
      ((await web().get('/api/v1/vacancies?q=barista')).body.items as { id: string }[]).map(
        (v) => v.id,
      );
    const onMap = async () => {
      const map = (await web().get('/api/v1/map?bbox=20,51,22,53&zoom=3')).body as MapResult;
      return map.points.length + map.clusters.reduce((n, c) => n + c.count, 0);
    };
    const sitemap = async () => (await web().get('/sitemap.xml')).body as string;
    const profile = (id: string) => web().get(`/api/v1/services/${id}`);

    // Warm every cache before the lines are crossed.
    expect(await ids('затишок')).toEqual([late.id, steady.id]);
    expect(await ids()).toEqual([late.id, steady.id]);
    expect(await vacancyIds()).toEqual([vacancy.body.id]);
    expect(await onMap()).toBe(2);
    expect(await sitemap()).toContain(late.id);

    await runAt(MAIL_AT);
    await runAt(afterMail(RECONFIRMATION.overdueDays - 1));
    expect((await profile(late.id)).body.confirmation).toBe('current');
    expect((await runAt(afterMail(RECONFIRMATION.overdueDays))).overdue).toBe(1);
    const overdue = (await profile(late.id)).body;
    expect(overdue).toMatchObject({ confirmation: 'overdue', confirmedAt: T0.toISOString() });
    // Ranked below the confirmed one, by relevance and by date; the card says so.
    expect(await ids('затишок')).toEqual([steady.id, late.id]);
    expect(await ids()).toEqual([steady.id, late.id]);
    expect((await search('затишок'))[1]).toMatchObject({ confirmation: 'overdue' });
    expect((await search('затишок'))[0]).toMatchObject({ confirmation: 'current' });
    // Administrators' stale filter.
    const stale = await admin.get('/api/v1/admin/services?stale=true');
    expect(stale.body.items.map((s: { id: string }) => s.id)).toEqual([late.id]);

    await runAt(afterMail(RECONFIRMATION.lapsedDays - 1));
    expect(await onMap()).toBe(2);
    expect((await runAt(afterMail(RECONFIRMATION.lapsedDays))).lapsed).toBe(1);
    expect(await ids('затишок')).toEqual([steady.id]);
    expect(await ids()).toEqual([steady.id]);
    expect(await vacancyIds()).toEqual([]);
    expect(await onMap()).toBe(1);
    expect(await sitemap()).not.toContain(late.id);
    expect((await profile(late.id)).status).toBe(404);
    expect((await web().get(`/api/v1/vacancies?serviceId=${late.id}`)).body.items).toEqual([]);
    const report = await web().post('/api/v1/reports', {
      serviceId: late.id,
      reason: 'no_contact',
      description: '',
    });
    expect(report.status).toBe(404);
    // Still in the administrators' list and the owner's dashboard.
    expect((await admin.get('/api/v1/admin/services?stale=true')).body.items).toHaveLength(1);
    const mine = await late.client.get('/api/v1/my/services');
    expect(mine.body[0]).toMatchObject({ id: late.id, confirmation: 'lapsed' });

    // Someone else cannot confirm it; its owner can, and it is back everywhere at once.
    expect((await steady.client.post(`/api/v1/my/services/${late.id}/confirm`)).status).toBe(404);
    const back = await late.client.post(`/api/v1/my/services/${late.id}/confirm`);
    expect(back.status).toBe(200);
    expect((await profile(late.id)).body.confirmation).toBe('current');
    expect(await ids('затишок')).toEqual([late.id, steady.id]);
    expect(await vacancyIds()).toEqual([vacancy.body.id]);
    expect(await onMap()).toBe(2);
    expect(await sitemap()).toContain(late.id);
    expect((await admin.get('/api/v1/admin/services?stale=true')).body.items).toEqual([]);
  });

  it('refuses to confirm a service that is not approved, and needs a session and the anti-forgery token', async () => {
    clock = T0;
    const client = new TestClient(server.url);
    await client.init();
    const res = await client.post('/api/v1/auth/register', registration());
    const id = res.body.service.id as string;
    const pending = await client.post(`/api/v1/my/services/${id}/confirm`);
    expect(pending).toMatchObject({
      status: 409,
      body: { errors: { message: 'service_not_approved' } },
    });
    const visitor = web();
    await visitor.init();
    const anonymous = await visitor.post(`/api/v1/my/services/${id}/confirm`);
    expect(anonymous.status).toBe(401);
    const noToken = await client.post(`/api/v1/my/services/${id}/confirm`, undefined, {
      csrf: false,
    });
    expect(noToken.body.errors.message).toBe('csrf_token_invalid');
  });
});
