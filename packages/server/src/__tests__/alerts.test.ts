import { and, eq, isNotNull } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_LIMITS } from '@poruch/core';
import { accounts, alertSubscriptions } from '../db/schema.js';
import {
  alertConfirmToken,
  alertMailHeaders,
  alertManageToken,
  alertUnsubscribeToken,
} from '../alerts/links.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

let server: TestServer;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    MAIL_RATE_PER_MINUTE: '60000',
    ALERT_DIGESTS: 'false',
    RATE_ALERT_PER_IP: '1000',
    RATE_ALERT_PER_EMAIL: '1000',
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const FOREIGN = 'https://diaspora.example';
const secret = () => server.app.mail.unsubscribeSecret;
const address = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.org`;

/** A call as a widget on another site makes it: no cookie, an Origin of its own. */
async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  base = server.url,
) {
  const response = await fetch(`${base}/api/v1/${path}`, {
    method,
    headers: {
      origin: FOREIGN,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? JSON.parse(text) : null,
  };
}

const subscribe = (body: Record<string, unknown>, base?: string) =>
  call('POST', 'alerts', body, {}, base);

const servicesAlert = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  kind: 'services',
  frequency: 'daily',
  filters: { q: 'перукар', country: 'PL', category: 'beauty_and_health' },
  ...extra,
});

const rowsOf = (email: string) =>
  server.database.db.select().from(alertSubscriptions).where(eq(alertSubscriptions.email, email));

/** The confirm link of the mail to `to` (waits for the mail), and the mail. */
async function confirmMail(to: string, n = 1): Promise<{ mail: ParsedMail; token: string }> {
  const mail = await smtp.waitForMail(
    (m) =>
      smtp.messages.filter((x) => [x.to].flat().some((a) => a?.text.includes(to))).length >= n &&
      [m.to].flat().some((a) => a?.text.includes(to)),
  );
  const url = /(http:\/\/localhost:8080\/alerts\/confirm\?token=[^\s&]+)&lang=(\w+)/.exec(
    mail.text ?? '',
  );
  expect(url, mail.text).toBeTruthy();
  return { mail, token: decodeURIComponent(new URL(url![1]!).searchParams.get('token')!) };
}

describe('POST alerts', () => {
  it('answers 202 with the same body for a new address, a known one and the same search again', async () => {
    const known = address('partner');
    await server.database.db
      .insert(accounts)
      .values({ email: known, passwordHash: 'x', type: 'PARTNER', firstName: 'Олена' });
    const fresh = address('fresh');
    const answers = [
      await subscribe(servicesAlert(fresh)),
      await subscribe(servicesAlert(known)),
      await subscribe(servicesAlert(fresh)),
    ];
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.text).toBe(answers[0]!.text);
      expect(a.headers.get('set-cookie')).toBeNull();
    }
    expect(answers[0]!.body).toEqual({ status: 'pending' });
    // The same search twice is one subscription (its confirmation mailed again).
    expect(await rowsOf(fresh)).toHaveLength(1);
    expect(await rowsOf(known)).toHaveLength(1);
  });

  it('mails the confirmation in the chosen language; its link confirms, and nothing is confirmed before', async () => {
    const email = address('anna');
    expect((await subscribe(servicesAlert(email.toUpperCase(), { locale: 'en_GB' }))).status).toBe(
      202,
    );
    const [row] = await rowsOf(email); // stored lower-case
    expect(row).toMatchObject({ locale: 'en_GB', confirmedAt: null, lastDigestAt: null });
    const confirmed = await server.database.db
      .select()
      .from(alertSubscriptions)
      .where(and(eq(alertSubscriptions.email, email), isNotNull(alertSubscriptions.confirmedAt)));
    expect(confirmed).toHaveLength(0);

    const { mail, token } = await confirmMail(email);
    expect(mail.subject).toBe('Confirm your Poruch alert');
    expect(mail.text).toContain('Search: “перукар”');
    expect(mail.text).toContain('Country: Poland');
    expect(mail.text).toContain('lang=en_GB');
    expect(mail.text).toMatch(/All your alerts: http:\/\/localhost:8080\/alerts\/manage\?token=/);

    // Not yet confirmed: the manage page lists it as such.
    const manageToken = alertManageToken(secret(), email);
    const before = await call('POST', 'alerts/manage', { token: manageToken });
    expect(before.body.alerts).toMatchObject([{ id: row!.id, confirmed: false }]);

    const done = await call('POST', 'alerts/confirm', { token });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'confirmed', locale: 'en_GB', manageToken });
    const [after] = await rowsOf(email);
    expect(after!.confirmedAt).not.toBeNull();
    expect(after!.lastDigestAt).toEqual(after!.confirmedAt);
    // Again: still confirmed, the time of the first confirmation kept.
    expect((await call('POST', 'alerts/confirm', { token })).status).toBe(200);
    expect((await rowsOf(email))[0]!.confirmedAt).toEqual(after!.confirmedAt);
  });

  it('mails Ukrainian by default, the vacancy search described', async () => {
    const email = address('taras');
    const answer = await subscribe({
      email,
      kind: 'vacancies',
      filters: { q: 'кухар', experience: 'one_two' },
    });
    expect(answer.status).toBe(202);
    const { mail } = await confirmMail(email);
    expect(mail.subject).toBe('Підтвердьте сповіщення Поруч');
    expect(mail.text).toContain('нові вакансії');
    expect(mail.text).toContain('Пошук: «кухар»');
    expect(mail.text).toContain('Досвід: 1–2 роки');
    expect((await rowsOf(email))[0]).toMatchObject({ locale: 'ua', frequency: 'daily' });
  });

  it('refuses a forged, expired or other-purpose token, and a deleted alert', async () => {
    const email = address('forged');
    await subscribe(servicesAlert(email));
    const [row] = await rowsOf(email);
    const good = alertConfirmToken(secret(), row!.id);
    const forged = `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`;
    const expired = alertConfirmToken(secret(), row!.id, new Date(Date.now() - 8 * 86_400_000));
    for (const [token, detail] of [
      [forged, 'alert_link_invalid'],
      [expired, 'alert_link_expired'],
      [alertUnsubscribeToken(secret(), row!.id), 'alert_link_invalid'],
      [alertManageToken(secret(), email), 'alert_link_invalid'],
      ['nonsense', 'alert_link_invalid'],
    ] as const) {
      const answer = await call('POST', 'alerts/confirm', { token });
      expect(answer.status, token).toBe(400);
      expect(answer.body.errors.message).toBe('bad_request');
      expect(answer.body.error.message).toBe(detail);
    }
    expect((await rowsOf(email))[0]!.confirmedAt).toBeNull();
    // A manage token signed for another purpose or forged lists nothing.
    for (const token of [good, `${alertManageToken(secret(), email)}x`]) {
      const answer = await call('POST', 'alerts/manage', { token });
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toBe('alert_link_invalid');
    }
    await server.database.db.delete(alertSubscriptions).where(eq(alertSubscriptions.id, row!.id));
    const gone = await call('POST', 'alerts/confirm', { token: good });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('alert_gone');
  });

  it('refuses bad input with field errors, never a 500', async () => {
    const email = address('bad');
    const near = { lat: 50.06, lng: 19.94, radiusKm: 25, label: 'Kraków' };
    const cases: [Record<string, unknown>, string, string][] = [
      [servicesAlert('not an address'), 'email', 'validation.email'],
      [
        servicesAlert(email, { filters: { q: 'a\u0000b' } }),
        'filters.q',
        'validation.invalid_characters',
      ],
      [
        servicesAlert(email, { filters: { q: 'x'.repeat(201) } }),
        'filters.q',
        'validation.max_length',
      ],
      [
        servicesAlert(email, { filters: { near: { ...near, radiusKm: 0 } } }),
        'filters.near.radiusKm',
        'validation.invalid',
      ],
      [
        servicesAlert(email, { filters: { near: { ...near, radiusKm: 201 } } }),
        'filters.near.radiusKm',
        'validation.invalid',
      ],
      [
        servicesAlert(email, { filters: { near: { ...near, lat: 91 } } }),
        'filters.near.lat',
        'validation.invalid',
      ],
      [
        servicesAlert(email, { filters: { near: { ...near, label: 'K\u0007' } } }),
        'filters.near.label',
        'validation.invalid_characters',
      ],
      [
        servicesAlert(email, { filters: { experience: 'one_two' } }),
        'filters.experience',
        'validation.unknown_field',
      ],
      [
        servicesAlert(email, { filters: { extra: 'x'.repeat(100_000) } }),
        'filters.extra',
        'validation.unknown_field',
      ],
      [servicesAlert(email, { frequency: 'hourly' }), 'frequency', 'validation.invalid'],
      [servicesAlert(email, { locale: 'de' }), 'locale', 'validation.invalid'],
      [servicesAlert(email, { kind: 'people' }), 'kind', 'validation.invalid'],
      [{ ...servicesAlert(email), isConfirmed: true }, 'isConfirmed', 'validation.unknown_field'],
    ];
    for (const [body, field, key] of cases) {
      const answer = await subscribe(body);
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(answer.body.errors.message).toBe('validation_failed');
      const fields = answer.body.errors.fields.map((f: { field: string; key: string }) => f.field);
      expect(fields, JSON.stringify(answer.body)).toContain(field);
      const found = answer.body.errors.fields.find((f: { field: string }) => f.field === field);
      if (key !== 'validation.invalid') expect(found.key).toBe(key);
    }
    expect(await rowsOf(email)).toHaveLength(0);
    // A body far over the limit: 413, not a 500.
    const huge = await subscribe(servicesAlert(email, { filters: { q: 'x'.repeat(400_000) } }));
    expect(huge.status).toBe(413);
  });

  it(`keeps at most ${ALERT_LIMITS.perAddress} alerts per address, still answering 202`, async () => {
    const email = address('many');
    for (let i = 0; i <= ALERT_LIMITS.perAddress; i++) {
      const answer = await subscribe(servicesAlert(email, { filters: { q: `search ${i}` } }));
      expect(answer.status).toBe(202);
    }
    expect(await rowsOf(email)).toHaveLength(ALERT_LIMITS.perAddress);
  });

  it('answers a foreign origin without cookies (CORS preflight included) and refuses an opaque origin', async () => {
    const preflight = await fetch(`${server.url}/api/v1/alerts`, {
      method: 'OPTIONS',
      headers: {
        origin: FOREIGN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const answer = await subscribe(servicesAlert(address('cors')));
    expect(answer.status).toBe(202);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('set-cookie')).toBeNull();
    const opaque = await call('POST', 'alerts', servicesAlert(address('null')), { origin: 'null' });
    expect(opaque.status).toBe(403);
  });
});

describe('rate limits of POST alerts', () => {
  it('limits per address and per IP: 429 too_many_requests with Retry-After', async () => {
    const limited = await startTestServer({
      ALERT_DIGESTS: 'false',
      MAIL_WORKER: 'false',
      RATE_ALERT_PER_IP: '6',
      RATE_ALERT_PER_EMAIL: '2',
    });
    try {
      const email = address('limit');
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await subscribe(servicesAlert(email.toUpperCase()), limited.url)).status);
      }
      expect(statuses).toEqual([202, 202, 429]);
      const refused = await subscribe(servicesAlert(email), limited.url);
      expect(refused.status).toBe(429);
      expect(refused.body.errors.message).toBe('too_many_requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Other addresses from the same IP until the IP's limit (6 hits in all, refused ones too).
      expect((await subscribe(servicesAlert(address('b')), limited.url)).status).toBe(202);
      expect((await subscribe(servicesAlert(address('c')), limited.url)).status).toBe(202);
      expect((await subscribe(servicesAlert(address('d')), limited.url)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('managing alerts by the signed link', () => {
  async function confirmedAlerts(email: string, n: number) {
    for (let i = 0; i < n; i++) {
      await subscribe(servicesAlert(email, { filters: { q: `q${i}` } }));
    }
    const rows = await rowsOf(email);
    for (const r of rows) {
      expect(
        (await call('POST', 'alerts/confirm', { token: alertConfirmToken(secret(), r.id) })).status,
      ).toBe(200);
    }
    return rows.map((r) => r.id);
  }

  it('lists, changes and deletes only the alerts of its own address', async () => {
    const mine = address('mine');
    const theirs = address('theirs');
    const [a, b] = await confirmedAlerts(mine, 2);
    const [other] = await confirmedAlerts(theirs, 1);
    const token = alertManageToken(secret(), mine);

    const listed = await call('POST', 'alerts/manage', { token });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toContain('no-store');
    expect(listed.body.email).toBe(mine);
    expect(listed.body.alerts.map((x: { id: string }) => x.id).sort()).toEqual([a, b].sort());
    expect(listed.body.alerts.every((x: { confirmed: boolean }) => x.confirmed)).toBe(true);

    // Another address's alert is not found through this token, whatever the call.
    const put = { token, frequency: 'weekly' };
    expect((await call('PUT', `alerts/manage/${other}`, put)).status).toBe(404);
    expect((await call('DELETE', `alerts/manage/${other}`, { token })).status).toBe(404);

    const changed = await call('PUT', `alerts/manage/${a}`, {
      ...put,
      filters: {
        q: 'стоматолог',
        near: { lat: 52.23, lng: 21.01, radiusKm: 30, label: 'Warszawa' },
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: a,
      frequency: 'weekly',
      filters: { q: 'стоматолог', category: 'all', near: { radiusKm: 30 } },
    });
    // A filter of the other kind, or a bad radius: field errors.
    const wrongKind = await call('PUT', `alerts/manage/${a}`, {
      ...put,
      filters: { experience: 'any' },
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.errors.fields[0].field).toBe('filters.experience');
    const badRadius = await call('PUT', `alerts/manage/${a}`, {
      ...put,
      filters: { near: { lat: 1, lng: 1, radiusKm: 1000, label: 'x' } },
    });
    expect(badRadius.status).toBe(400);
    expect(
      (await call('PUT', `alerts/manage/${a}`, { token: 'x.y', frequency: 'weekly' })).status,
    ).toBe(400);

    expect((await call('DELETE', `alerts/manage/${a}`, { token })).status).toBe(204);
    expect((await rowsOf(mine)).map((r) => r.id)).toEqual([b]);
    const all = await call('DELETE', 'alerts/manage', { token });
    expect(all.body).toEqual({ deleted: 1 });
    expect(await rowsOf(mine)).toHaveLength(0);
    expect(await rowsOf(theirs)).toHaveLength(1);
    const empty = await call('POST', 'alerts/manage', { token });
    expect(empty.body.alerts).toEqual([]);
  });

  it('deletes one alert by its RFC 8058 one-click POST, as a mail client sends it', async () => {
    const email = address('oneclick');
    const [first, second] = await confirmedAlerts(email, 2);
    const headers = alertMailHeaders('http://localhost:8080', secret(), { id: first! });
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<http:\/\/localhost:8080(\/api\/v1\/alerts\/unsubscribe\?token=.+)>$/.exec(
      headers['List-Unsubscribe']!,
    )![1]!;
    const click = await fetch(`${server.url}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(click.status).toBe(200);
    expect(click.headers.get('set-cookie')).toBeNull();
    expect((await rowsOf(email)).map((r) => r.id)).toEqual([second]);
    // Idempotent; a forged token changes nothing.
    expect((await fetch(`${server.url}${url}`, { method: 'POST' })).status).toBe(200);
    const forged = await fetch(`${server.url}${url.slice(0, -3)}abc`, { method: 'POST' });
    expect(forged.status).toBe(400);
    expect(await rowsOf(email)).toHaveLength(1);
  });
});
