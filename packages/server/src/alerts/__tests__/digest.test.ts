import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceAlertFilters, VacancyAlertFilters } from '@poruch/core';
import { openDatabase, type Database } from '../../db/index.js';
import { Outbox } from '../../mail/outbox.js';
import { searchServices, searchVacancies } from '../../search/index.js';
import { startSmtp, type TestSmtp } from '../../__tests__/helpers/smtp.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { DIGEST_ITEM_CAP, runDigests, type DigestOptions } from '../digest.js';
import { DAY, HOUR, addService, addSubscription, addVacancy, approvedAt, at } from './helpers.js';

const onPostgres = process.env.PORUCH_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** A fixed start: every time in these tests is an offset from it. */
const T0 = new Date('2026-03-02T08:00:00.000Z');
const WARSAW: [number, number] = [52.2297, 21.0122];
const KRAKOW: [number, number] = [50.0647, 19.945];

let server: TestServer;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    ALERT_DIGESTS: 'false',
    PUBLIC_URL: 'https://poruch.example.org',
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

beforeEach(async () => {
  await server.database.db.execute(
    sql`TRUNCATE alert_subscriptions, alert_deliveries, audit_log, services CASCADE`,
  );
});

const db = () => server.database.db;

/** One digest run at the clock's `now`. */
const run = (now: Date, more: Partial<DigestOptions> = {}) =>
  runDigests({
    db: db(),
    outbox: server.app.mail.outbox,
    publicUrl: server.env.PUBLIC_URL,
    secret: server.app.mail.unsubscribeSecret,
    now: () => now,
    ...more,
  });

/**
 * The items mailed to a subscription in all its digests, by id (each item's name is unique in
 * these tests): one entry per listing, so an item mailed twice shows twice.
 */
async function delivered(subscriptionId: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db().execute(sql`
      SELECT x.id FROM alert_subscriptions a
      JOIN mail_outbox m ON m.recipient = a.email AND m.template = 'alertDigest'
      CROSS JOIN jsonb_array_elements(m.payload->'items') item
      JOIN (SELECT id, name, 'services' AS kind FROM services
            UNION ALL SELECT id, name, 'vacancies' FROM vacancies) x
        ON x.name = item->>'name' AND x.kind = a.kind
      WHERE a.id = ${subscriptionId}`),
  );
  return rows.map((r) => r.id).sort();
}

/** Digest rows queued in the outbox for an address. */
async function digestsTo(email: string) {
  return rowsOf<{ id: string; payload: Record<string, unknown> }>(
    await db().execute(sql`SELECT id, payload FROM mail_outbox
      WHERE template = 'alertDigest' AND recipient = ${email} ORDER BY created_at`),
  );
}

const mailTo = async (email: string): Promise<ParsedMail> => {
  server.app.mail.worker?.wake();
  return smtp.waitFor(email);
};

describe('alert digests', () => {
  it('mails the new items in the subscriber’s language, capped, with the search and manage links and one-click headers', async () => {
    const ids: string[] = [];
    for (let i = 0; i < DIGEST_ITEM_CAP + 5; i++) {
      ids.push(
        await addService(db(), {
          name: `Пекарня <b>№${i}</b>`,
          category: 'commerce',
          address: `вул. Хлібна ${i}, Kraków`,
          approvedAt: at(T0, HOUR + i * 60_000),
        }),
      );
    }
    // Approved before the subscription: not new.
    await addService(db(), { name: 'Стара пекарня', approvedAt: at(T0, -HOUR) });
    const filters: ServiceAlertFilters = { country: 'PL', category: 'commerce' };
    await addSubscription(db(), { email: 'ua@digest.test', filters, confirmedAt: T0 });
    await addSubscription(db(), {
      email: 'en@digest.test',
      locale: 'en_GB',
      filters,
      confirmedAt: T0,
    });

    const result = await run(at(T0, DAY));
    // The pairs recorded are those listed; the rest are "and 5 more".
    expect(result).toMatchObject({ subscriptions: 2, mails: 2, pairs: 2 * DIGEST_ITEM_CAP });

    const ua = await mailTo('ua@digest.test');
    expect(ua.subject).toBe(`Нові сервіси за вашою підпискою: ${ids.length}`);
    expect(ua.text).toContain('У Поруч з’явилися нові сервіси');
    expect(ua.text).toContain('Ваш пошук: Країна: Польща · Категорія: Торгівля');
    expect(ua.text).toContain('І ще 5. Усі результати: https://poruch.example.org/?view=list');
    expect(ua.text).not.toContain('Стара пекарня');
    // The newest first, the 20 listed with their pages; the names are escaped in HTML.
    expect(ua.text).toContain(
      `Пекарня <b>№24</b> — вул. Хлібна 24, Kraków: https://poruch.example.org/services/${ids[24]}?lang=ua`,
    );
    expect(ua.text).not.toContain('№4</b>');
    expect(ua.html).toContain('Пекарня &#60;b&#62;№24&#60;/b&#62;');
    expect(ua.html).not.toContain('<b>');
    expect(ua.text).toContain('country=PL&category=commerce&lang=ua');
    expect(ua.text).toMatch(
      /Змінити підписку або відписатися: https:\/\/poruch\.example\.org\/\S+/,
    );
    const header = (m: ParsedMail, key: string) =>
      (m.headerLines.find((h) => h.key === key)?.line ?? '').replace(/\r?\n[ \t]+/g, ' ');
    expect(header(ua, 'list-unsubscribe')).toMatch(
      /^List-Unsubscribe: <https:\/\/poruch\.example\.org\/api\/v1\/alerts\/unsubscribe\?token=\S+>$/,
    );
    expect(header(ua, 'list-unsubscribe-post')).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );

    const en = await mailTo('en@digest.test');
    expect(en.subject).toBe(`New services for your alert: ${ids.length}`);
    expect(en.text).toContain('New services matching your search have been added to Poruch:');
    expect(en.text).toContain('Your search: Country: Poland · Category: Commerce');
    expect(en.text).toContain('And 5 more. See every result: https://poruch.example.org/');
    expect(en.text).toContain(`/services/${ids[24]}?lang=en_GB`);
    expect(en.text).toContain('Change or cancel this alert: https://poruch.example.org/');
    expect(header(en, 'list-unsubscribe-post')).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    // Each subscription its own one-click link.
    expect(header(en, 'list-unsubscribe')).not.toBe(header(ua, 'list-unsubscribe'));
  });

  it('mails nothing to an unconfirmed subscription, nor when nothing is new', async () => {
    await addService(db(), { name: 'Нова кав’ярня', approvedAt: at(T0, HOUR) });
    const unconfirmed = await addSubscription(db(), {
      email: 'unconfirmed@digest.test',
      confirmedAt: null,
    });
    const other = await addSubscription(db(), {
      email: 'nothing@digest.test',
      filters: { country: 'DE', category: 'all' },
      confirmedAt: T0,
    });
    const result = await run(at(T0, 2 * DAY));
    expect(result).toMatchObject({ subscriptions: 1, mails: 0, pairs: 0 });
    expect(await digestsTo('unconfirmed@digest.test')).toEqual([]);
    expect(await digestsTo('nothing@digest.test')).toEqual([]);
    expect(await delivered(unconfirmed)).toEqual([]);
    expect(await delivered(other)).toEqual([]);
    // Its period moved on all the same.
    const [row] = rowsOf<{ last: string }>(
      await db().execute(
        sql`SELECT last_digest_at::text AS last FROM alert_subscriptions WHERE id = ${other}`,
      ),
    );
    expect(new Date(row!.last).getTime()).toBe(at(T0, 2 * DAY).getTime());
  });

  it('deletes a subscription left unconfirmed for a week, and nothing else', async () => {
    const now = at(T0, 30 * DAY);
    const made = async (email: string, daysAgo: number, confirmedAt: Date | null) => {
      const id = await addSubscription(db(), { email, confirmedAt });
      await db().execute(sql`UPDATE alert_subscriptions
        SET created_at = ${at(now, -daysAgo * DAY).toISOString()}::timestamptz WHERE id = ${id}`);
      return id;
    };
    const stale = await made('stale@digest.test', 7.01, null);
    const recent = await made('recent@digest.test', 6.99, null);
    const confirmed = await made('confirmed@digest.test', 20, at(now, -20 * DAY));
    expect(await run(now)).toMatchObject({ purged: 1 });
    const left = rowsOf<{ id: string }>(
      await db().execute(sql`SELECT id FROM alert_subscriptions ORDER BY email`),
    ).map((r) => r.id);
    expect(left.sort()).toEqual([recent, confirmed].sort());
    expect(left).not.toContain(stale);
    // A day later the other one's week is over too.
    expect(await run(at(now, DAY))).toMatchObject({ purged: 1 });
  });

  it('batches instant alerts at most hourly, and sends daily and weekly ones once a period', async () => {
    const instant = await addSubscription(db(), {
      email: 'instant@digest.test',
      frequency: 'instant',
      confirmedAt: T0,
    });
    const daily = await addSubscription(db(), {
      email: 'daily@digest.test',
      frequency: 'daily',
      confirmedAt: T0,
    });
    const weekly = await addSubscription(db(), {
      email: 'weekly@digest.test',
      frequency: 'weekly',
      confirmedAt: T0,
    });
    const a = await addService(db(), { name: 'A', approvedAt: at(T0, 10 * 60_000) });
    // Before the hour is up: nothing is due.
    expect((await run(at(T0, 50 * 60_000))).subscriptions).toBe(0);
    expect(await run(at(T0, HOUR))).toMatchObject({ subscriptions: 1, mails: 1 });
    expect(await delivered(instant)).toEqual([a]);

    const b = await addService(db(), { name: 'B', approvedAt: at(T0, HOUR + 5 * 60_000) });
    // Half an hour later: the instant alert waits for its hour.
    expect((await run(at(T0, HOUR + 30 * 60_000))).subscriptions).toBe(0);
    expect(await run(at(T0, 2 * HOUR))).toMatchObject({ subscriptions: 1, mails: 1 });
    expect(await delivered(instant)).toEqual([a, b].sort());
    expect(await digestsTo('instant@digest.test')).toHaveLength(2);
    // Each digest lists only what is new since the one before.
    const [, second] = await digestsTo('instant@digest.test');
    expect((second!.payload.items as { name: string }[]).map((i) => i.name)).toEqual(['B']);

    expect(await delivered(daily)).toEqual([]);
    // Only the instant alert is due, with nothing new.
    expect(await run(at(T0, DAY - 60_000))).toMatchObject({ subscriptions: 1, mails: 0 });
    expect(await delivered(daily)).toEqual([]);
    await run(at(T0, DAY));
    expect(await delivered(daily)).toEqual([a, b].sort());
    expect(await digestsTo('daily@digest.test')).toHaveLength(1);

    const c = await addService(db(), { name: 'C', approvedAt: at(T0, DAY + HOUR) });
    await run(at(T0, 2 * DAY - 60_000));
    expect(await delivered(daily)).toEqual([a, b].sort());
    await run(at(T0, 2 * DAY));
    expect(await delivered(daily)).toEqual([a, b, c].sort());
    expect(await digestsTo('daily@digest.test')).toHaveLength(2);

    expect(await delivered(weekly)).toEqual([]);
    await run(at(T0, 7 * DAY - 60_000));
    expect(await delivered(weekly)).toEqual([]);
    await run(at(T0, 7 * DAY));
    expect(await delivered(weekly)).toEqual([a, b, c].sort());
    expect(await digestsTo('weekly@digest.test')).toHaveLength(1);
  });

  it('mails an approval committed after a run but stamped before it, and never one mailed already', async () => {
    const sub = await addSubscription(db(), {
      email: 'lookback@digest.test',
      frequency: 'instant',
      confirmedAt: T0,
    });
    const mailed = await addService(db(), {
      name: 'Уже надіслано',
      approvedAt: at(T0, 55 * 60_000),
    });
    expect(await run(at(T0, HOUR))).toMatchObject({ mails: 1, pairs: 1 });
    // Its transaction began (and stamped the approval) before the run, and committed after it.
    const late = await addService(db(), { name: 'Запізніле', approvedAt: at(T0, 58 * 60_000) });
    expect(await run(at(T0, 2 * HOUR))).toMatchObject({ mails: 1, pairs: 1 });
    expect(await delivered(sub)).toEqual([mailed, late].sort());
    const [, second] = await digestsTo('lookback@digest.test');
    expect((second!.payload.items as { name: string }[]).map((i) => i.name)).toEqual(['Запізніле']);
    expect(second!.payload.more).toBe(0);
  });

  it('finds what the public search finds among the new items, for the same filters', async () => {
    const old = at(T0, -DAY);
    const fresh = at(T0, HOUR);
    const catalogue = [
      { name: 'Перукарня «Калина»', category: 'beauty_and_health', at: WARSAW },
      { name: 'Kalyna hair studio', category: 'beauty_and_health', at: KRAKOW },
      { name: 'Перукарня Мрія', category: 'beauty_and_health', country: 'DE' },
      { name: 'Авторемонт Богдан', category: 'auto', at: WARSAW },
      { name: 'Автомийка', category: 'auto', at: KRAKOW, status: 'declined' as const },
      { name: 'Психолог Олена', category: 'psychology', at: [52.25, 21.05] as [number, number] },
      { name: 'Туристична агенція', category: 'tourism', country: 'CZ' },
      { name: 'Бухгалтер без категорії', category: null },
    ] as const;
    const fresh_: string[] = [];
    for (const [i, s] of catalogue.entries()) {
      // Each service twice: once approved before the subscription, once after.
      await addService(db(), { ...s, name: `${s.name} (старий)`, approvedAt: old });
      const id = await addService(db(), {
        ...s,
        category: s.category,
        approvedAt: 'status' in s ? undefined : at(fresh, i * 1000),
      });
      if ('status' in s) await approvedAt(db(), id, fresh);
      fresh_.push(id);
    }
    const filterSets: ServiceAlertFilters[] = [
      { category: 'all' },
      { country: 'PL', category: 'all' },
      { category: 'beauty_and_health' },
      { category: 'empty' },
      { q: 'перукарня', category: 'all' },
      { q: 'kalina', category: 'all' },
      { q: 'перукарнф', category: 'all' },
      { q: 'авто', country: 'PL', category: 'auto' },
      {
        category: 'all',
        near: { lat: WARSAW[0], lng: WARSAW[1], radiusKm: 10, label: 'Warszawa' },
      },
      { category: 'all', near: { lat: KRAKOW[0], lng: KRAKOW[1], radiusKm: 300, label: 'Kraków' } },
    ];
    const subs: string[] = [];
    for (const [i, filters] of filterSets.entries()) {
      subs.push(
        await addSubscription(db(), { email: `agree${i}@digest.test`, filters, confirmedAt: T0 }),
      );
    }
    await run(at(T0, DAY));
    const isNew = new Set(fresh_);
    for (const [i, f] of filterSets.entries()) {
      const page = await searchServices(db(), {
        q: f.q,
        country: f.country,
        category: f.category ?? 'all',
        ...(f.near
          ? { near: { lat: f.near.lat, lng: f.near.lng }, radiusKm: f.near.radiusKm }
          : {}),
        sort: 'relevance',
        page: 1,
        pageSize: 100,
      });
      const expected = page.items.map((s) => s.id).filter((id) => isNew.has(id));
      expect(await delivered(subs[i]!), JSON.stringify(f)).toEqual(expected.sort());
    }
    // The set is not trivial: the filters tell the items apart.
    const sizes = await Promise.all(subs.map(async (s) => (await delivered(s)).length));
    expect(new Set(sizes).size).toBeGreaterThan(3);
  });

  it('vacancies: opened since the last digest, matched as the vacancy search matches', async () => {
    const shop = await addService(db(), {
      name: 'Склад «Дніпро»',
      category: 'commerce',
      approvedAt: at(T0, -DAY),
    });
    const later = await addService(db(), {
      name: 'Кафе «Борщ»',
      category: 'food',
      country: 'DE',
      status: 'pending',
    });
    await addVacancy(db(), { serviceId: shop, name: 'Комірник (старий)', at: at(T0, -HOUR) });
    const picker = await addVacancy(db(), {
      serviceId: shop,
      name: 'Комплектувальник',
      experience: 'one_two',
      at: at(T0, HOUR),
    });
    const driver = await addVacancy(db(), { serviceId: shop, name: 'Водій', at: at(T0, 2 * HOUR) });
    await addVacancy(db(), {
      serviceId: shop,
      name: 'Закрита вакансія',
      at: at(T0, HOUR),
      isOpen: false,
    });
    // Created before, visible once its service is approved: new then.
    const cook = await addVacancy(db(), { serviceId: later, name: 'Кухар', at: at(T0, -DAY) });
    await db().execute(sql`UPDATE services SET status = 'approved' WHERE id = ${later}`);
    await approvedAt(db(), later, at(T0, 3 * HOUR));

    const filterSets: VacancyAlertFilters[] = [
      { category: 'all' },
      { category: 'commerce', country: 'PL' },
      { q: 'водій', category: 'all' },
      { category: 'all', experience: 'one_two' },
      { country: 'DE', category: 'all' },
    ];
    const subs: string[] = [];
    for (const [i, filters] of filterSets.entries()) {
      subs.push(
        await addSubscription(db(), {
          email: `vacancy${i}@digest.test`,
          kind: 'vacancies',
          filters,
          confirmedAt: T0,
        }),
      );
    }
    await run(at(T0, DAY));
    expect(await delivered(subs[0]!)).toEqual([picker, driver, cook].sort());
    const isNew = new Set([picker, driver, cook]);
    for (const [i, f] of filterSets.entries()) {
      const page = await searchVacancies(db(), {
        q: f.q,
        country: f.country,
        category: f.category ?? 'all',
        experience: f.experience,
        openOnly: true,
        page: 1,
        pageSize: 100,
      });
      const expected = page.items.map((v) => v.id).filter((id) => isNew.has(id));
      expect(await delivered(subs[i]!), JSON.stringify(f)).toEqual(expected.sort());
    }
    const [mail] = await digestsTo('vacancy0@digest.test');
    expect(mail!.payload.kind).toBe('vacancies');
    expect(JSON.stringify(mail!.payload.items)).toContain(`/services/${shop}/vacancies?lang=ua`);
  });

  it('mails each pair at most once when two instances run at the same time', async () => {
    const items: string[] = [];
    for (let i = 0; i < 30; i++) {
      items.push(await addService(db(), { name: `Сервіс ${i}`, approvedAt: at(T0, HOUR + i) }));
    }
    const subs: string[] = [];
    for (let i = 0; i < 400; i++) {
      subs.push(
        await addSubscription(db(), {
          email: `twice${i}@digest.test`,
          frequency: i % 2 ? 'daily' : 'instant',
          confirmedAt: T0,
        }),
      );
    }
    // A second instance: its own connections (PostgreSQL) and its own outbox, same database.
    let second: Database | null = null;
    if (onPostgres) {
      const pool = server.database.pools!.primary as unknown as {
        options: { connectionString: string };
      };
      second = await openDatabase({
        url: pool.options.connectionString,
        dataDir: '',
        migrate: false,
      });
    }
    const other = second?.db ?? db();
    const now = at(T0, DAY);
    const results = await Promise.all([
      run(now, { batchSize: 37 }),
      runDigests({
        db: other,
        outbox: new Outbox('other.test'),
        publicUrl: server.env.PUBLIC_URL,
        secret: server.app.mail.unsubscribeSecret,
        now: () => now,
        batchSize: 41,
      }),
      run(now, { batchSize: 53 }),
    ]);
    await second?.close();
    expect(results.reduce((n, r) => n + r.subscriptions, 0)).toBe(subs.length);
    expect(results.reduce((n, r) => n + r.mails, 0)).toBe(subs.length);
    const perSub = rowsOf<{ n: number; items: number }>(
      await db().execute(sql`SELECT count(*)::int AS n,
          sum(jsonb_array_length(payload->'items') + (payload->>'more')::int)::int AS items
        FROM mail_outbox WHERE template = 'alertDigest' AND recipient LIKE 'twice%'
        GROUP BY recipient`),
    );
    expect(perSub).toHaveLength(subs.length);
    for (const r of perSub) expect(r).toEqual({ n: 1, items: items.length });
    // A run after that finds nothing left to send.
    expect(await run(now)).toMatchObject({ subscriptions: 0, mails: 0 });
  });
});
