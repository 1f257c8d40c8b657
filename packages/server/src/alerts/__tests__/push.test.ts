import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_LIMITS } from '@poruch/core';
import { alertPushSubscriptions, alertSubscriptions, mailOutbox } from '../../db/schema.js';
import { startSmtp, type TestSmtp } from '../../__tests__/helpers/smtp.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { waitUntil } from '../../mail/__tests__/helpers.js';
import {
  browserSubscription,
  decrypt,
  startPushService,
} from '../../mail/__tests__/pushService.js';
import { alertManageToken } from '../links.js';
import { runDigests } from '../digest.js';
import { DAY, HOUR, addService, at } from './helpers.js';

/**
 * Alert pushes: a device sent with an alert from the installed app gets a push with each digest,
 * only once the address has confirmed; a device the push service says is gone is removed; the
 * manage page turns the pushes off. On a push service on loopback, with the real outbox worker.
 */
let server: TestServer;
let smtp: TestSmtp;
let push: Awaited<ReturnType<typeof startPushService>>;

beforeAll(async () => {
  push = await startPushService();
  smtp = await startSmtp();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    MAIL_RATE_PER_MINUTE: '60000',
    ALERT_DIGESTS: 'false',
    RATE_ALERT_PER_IP: '1000',
    RATE_ALERT_PER_EMAIL: '1000',
    PUBLIC_URL: 'https://poruch.example.org',
    // The push service of this test runs on loopback.
    PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await push?.close();
});

const db = () => server.database.db;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/api/v1/${path}`, {
    method,
    headers: { origin: 'https://diaspora.example', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const FILTERS = { q: 'пекарня', country: 'PL', category: 'food' };
const subscribe = (email: string, extra: Record<string, unknown> = {}) =>
  call('POST', 'alerts', {
    email,
    kind: 'services',
    frequency: 'daily',
    filters: FILTERS,
    ...extra,
  });

/** The token of the `n`th confirmation mail to `email` (waits for it). */
async function confirmToken(email: string, n: number): Promise<string> {
  server.app.mail.worker?.wake();
  const to = () => smtp.messages.filter((m) => [m.to].flat().some((a) => a?.text.includes(email)));
  await smtp.waitForMail(() => to().length >= n);
  const url = /\/alerts\/confirm\?token=([^\s&]+)/.exec(to()[n - 1]!.text ?? '');
  return decodeURIComponent(url![1]!);
}

const runAt = (now: Date) =>
  runDigests({
    db: db(),
    outbox: server.app.mail.outbox,
    publicUrl: server.env.PUBLIC_URL,
    secret: server.app.mail.unsubscribeSecret,
    now: () => now,
  });

const pushRows = async () =>
  rowsOf<{ recipient: string; status: string; payload: { count: number; url: string } }>(
    await db().execute(sql`SELECT recipient, status, payload FROM mail_outbox
      WHERE template = 'push:alertDigest' ORDER BY created_at`),
  );

describe('alert pushes', () => {
  it('pushes each digest to the confirmed devices only, once, and drops a device the push service says is gone', async () => {
    const email = 'olena-push@example.org';
    const phone = browserSubscription(`${push.origin}/push/alert-phone`);
    const oldTablet = browserSubscription(`${push.origin}/gone/alert-tablet`);
    expect((await subscribe(email, { push: phone.json })).status).toBe(202);
    expect((await subscribe(email, { push: oldTablet.json })).status).toBe(202);
    const [alert] = await db()
      .select()
      .from(alertSubscriptions)
      .where(eq(alertSubscriptions.email, email));
    const devices = () =>
      db()
        .select()
        .from(alertPushSubscriptions)
        .where(eq(alertPushSubscriptions.alertId, alert!.id));
    expect((await devices()).map((d) => d.confirmedAt)).toEqual([null, null]);

    // Confirmed by the second mail's link: both devices were stored before it was mailed.
    expect(
      (await call('POST', 'alerts/confirm', { token: await confirmToken(email, 2) })).status,
    ).toBe(200);
    expect((await devices()).every((d) => d.confirmedAt !== null)).toBe(true);
    // A device sent after the confirmation waits for the link mailed with it.
    const laptop = browserSubscription(`${push.origin}/push/alert-laptop`);
    expect((await subscribe(email, { push: laptop.json })).status).toBe(202);
    const pending = (await devices()).find((d) => d.endpoint === laptop.json.endpoint);
    expect(pending!.confirmedAt).toBeNull();

    const now = new Date();
    await addService(db(), {
      name: 'Пекарня «Колосок»',
      category: 'food',
      approvedAt: at(now, HOUR),
    });
    await addService(db(), {
      name: 'Пекарня «Хлібчик»',
      category: 'food',
      approvedAt: at(now, 2 * HOUR),
    });
    const digestAt = at(now, DAY + 3 * HOUR);
    expect((await runAt(digestAt)).mails).toBe(1);
    // The same run again (a retry after a crash, another instance) queues nothing more.
    await runAt(digestAt);
    const queued = await pushRows();
    expect(queued.map((r) => r.recipient).sort()).toEqual(
      (await devices())
        .filter((d) => d.confirmedAt)
        .map((d) => d.id)
        .sort(),
    );

    server.app.mail.worker?.wake();
    const got = await waitUntil(() => push.received.find((r) => r.path === '/push/alert-phone'));
    expect(decrypt(got, phone)).toEqual({
      title: '2 нові результати за вашою підпискою',
      body: 'Пошук: «пекарня» · Країна: Польща · Категорія: Їжа',
      url: 'https://poruch.example.org/?view=list&q=%D0%BF%D0%B5%D0%BA%D0%B0%D1%80%D0%BD%D1%8F&country=PL&category=food&lang=ua',
      tag: 'alertDigest',
    });
    expect(push.received.some((r) => r.path === '/push/alert-laptop')).toBe(false);
    // 410: the tablet is removed; the phone and the pending laptop stay.
    await waitUntil(async () => (await devices()).length === 2);
    expect((await devices()).map((d) => d.endpoint).sort()).toEqual(
      [laptop.json.endpoint, phone.json.endpoint].sort(),
    );
    const statuses = async () =>
      (
        await db()
          .select({ status: mailOutbox.status })
          .from(mailOutbox)
          .where(eq(mailOutbox.template, 'push:alertDigest'))
      )
        .map((r) => r.status)
        .sort()
        .join();
    await waitUntil(async () => !/queued|sending/.test(await statuses()));
    expect(await statuses()).toBe('failed,sent');
  });

  it('lists the devices on the manage page and turns their pushes off; refuses bad devices and foreign alerts', async () => {
    const email = 'taras-push@example.org';
    const phone = browserSubscription(`${push.origin}/push/manage-phone`);
    expect((await subscribe(email, { push: phone.json, locale: 'en_GB' })).status).toBe(202);
    expect(
      (await call('POST', 'alerts/confirm', { token: await confirmToken(email, 1) })).status,
    ).toBe(200);
    const token = alertManageToken(server.app.mail.unsubscribeSecret, email);
    const list = await call('POST', 'alerts/manage', { token });
    expect(list.body.alerts).toEqual([expect.objectContaining({ confirmed: true, devices: 1 })]);
    const id = list.body.alerts[0].id as string;

    const other = alertManageToken(server.app.mail.unsubscribeSecret, 'someone-else@example.org');
    expect((await call('DELETE', `alerts/manage/${id}/push`, { token: other })).status).toBe(404);
    expect((await call('DELETE', `alerts/manage/${id}/push`, { token: 'forged' })).status).toBe(
      400,
    );
    const off = await call('DELETE', `alerts/manage/${id}/push`, { token });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id, devices: 0 });
    expect((await call('POST', 'alerts/manage', { token })).body.alerts[0].devices).toBe(0);
    expect(
      await db()
        .select()
        .from(alertPushSubscriptions)
        .where(eq(alertPushSubscriptions.alertId, id)),
    ).toEqual([]);

    // Bad devices: a field message, never a 500; nothing stored.
    for (const bad of [
      { endpoint: 'http://push.example.org/x', keys: phone.json.keys },
      { endpoint: 'not a url', keys: phone.json.keys },
      { endpoint: phone.json.endpoint, keys: { p256dh: '', auth: 'x' } },
      { endpoint: phone.json.endpoint },
    ]) {
      const res = await subscribe('bad-push@example.org', { push: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errors.fields[0].field, JSON.stringify(bad)).toMatch(/^push\./);
    }
    expect(
      await db()
        .select()
        .from(alertSubscriptions)
        .where(eq(alertSubscriptions.email, 'bad-push@example.org')),
    ).toEqual([]);

    // At most ALERT_LIMITS.devicesPerAlert devices per alert.
    const many = 'many-devices@example.org';
    for (let i = 0; i <= ALERT_LIMITS.devicesPerAlert; i++) {
      const device = browserSubscription(`${push.origin}/push/many-${i}`);
      expect((await subscribe(many, { push: device.json })).status).toBe(202);
    }
    const [alert] = await db()
      .select()
      .from(alertSubscriptions)
      .where(eq(alertSubscriptions.email, many));
    expect(
      await db()
        .select()
        .from(alertPushSubscriptions)
        .where(eq(alertPushSubscriptions.alertId, alert!.id)),
    ).toHaveLength(ALERT_LIMITS.devicesPerAlert);
  });
});
