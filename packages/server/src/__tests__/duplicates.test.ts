import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, duplicateAnswers, services } from '../db/schema.js';
import { loggedIn, partner } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Warsaw; one degree of latitude is 111.2 km, so 0.00135° is 150 m and 0.0027° is 300 m. */
const HERE = { lat: 52.2297, lng: 21.0122 };
const NORTH_150M = { lat: HERE.lat + 0.00135, lng: HERE.lng };
const NORTH_300M = { lat: HERE.lat + 0.0027, lng: HERE.lng };
const PUBLIC_KEYS = [
  'address',
  'category',
  'countryCode',
  'distanceM',
  'id',
  'isOnline',
  'name',
  'phone',
  'reasons',
  'website',
];

let ipCounter = 0;
/** Each check from an address of its own, so the per-IP limit meets only the test that wants it. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

describe('duplicate detection', () => {
  let server: TestServer;
  let visitor: TestClient;
  let ownerId: string;
  let seq = 0;

  /** A service straight into the database, approved unless told otherwise. */
  const seed = async (values: Partial<typeof services.$inferInsert> & { name: string }) => {
    const [row] = await server.database.db
      .insert(services)
      .values({
        ownerId,
        countryCode: 'PL',
        status: 'approved',
        lat: HERE.lat,
        lng: HERE.lng,
        phone: `+48 500 ${String(++seq).padStart(6, '0')}`,
        website: `https://seed${seq}.example.org`,
        ...values,
      })
      .returning();
    return row!;
  };

  const check = (body: Record<string, unknown>, ip = freshIp(), client = visitor) =>
    client.post('/api/v1/services/duplicates', body, { headers: { 'x-forwarded-for': ip } });
  const ids = (res: { body: { candidates: { id: string }[] } }) =>
    res.body.candidates.map((c) => c.id);

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'loopback' });
    visitor = new TestClient(server.url);
    await visitor.init();
    const [owner] = await server.database.db
      .insert(accounts)
      .values({
        email: 'secret-owner@example.org',
        passwordHash: 'x',
        type: 'PARTNER',
        firstName: 'Таємна',
        lastName: 'Власниця',
        phone: '+48 999 888 777',
      })
      .returning();
    ownerId = owner!.id;
  });
  afterAll(() => server?.close());

  it('finds a similar name within 200 m, not at 300 m, and not a different name next door', async () => {
    const near = await seed({ name: 'Пекарня Колосок', ...NORTH_150M });
    const far = await seed({ name: 'Пекарня Колосок', ...NORTH_300M });
    const other = await seed({ name: 'Автосервіс Мотор', ...HERE });
    const res = await check({ name: 'Пекарня «Колосок»', ...HERE });
    expect(res.status).toBe(200);
    expect(ids(res)).toContain(near.id);
    expect(ids(res)).not.toContain(far.id);
    expect(ids(res)).not.toContain(other.id);
    const found = res.body.candidates.find((c: { id: string }) => c.id === near.id);
    expect(found.reasons).toEqual(['name_nearby']);
    expect(found.distanceM).toBeGreaterThan(140);
    expect(found.distanceM).toBeLessThan(160);
  });

  it('meets a Cyrillic name and its Latin transliteration ("Лелека" and "Leleka")', async () => {
    const cyrillic = await seed({ name: 'Лелека', lat: HERE.lat + 0.0005, lng: HERE.lng });
    const latin = await check({ name: 'Leleka', ...HERE });
    expect(ids(latin)).toContain(cyrillic.id);
    const roman = await seed({ name: 'Leleka Kids', lat: HERE.lat - 0.0005, lng: HERE.lng });
    const typed = await check({ name: 'Лелека Кідс', ...HERE });
    expect(ids(typed)).toEqual(expect.arrayContaining([roman.id]));
  });

  it('finds the same phone or website anywhere, whatever their formatting', async () => {
    const byPhone = await seed({
      name: 'Юридична фірма',
      countryCode: 'PT',
      lat: 38.72,
      lng: -9.14,
      phone: '+351 (912) 345-678',
    });
    const byWebsite = await seed({
      name: 'Школа танцю',
      countryCode: 'ES',
      lat: 40.41,
      lng: -3.7,
      website: 'https://www.Tanets.example.org/Madrid/',
    });
    const online = await seed({
      name: 'Онлайн-курси',
      lat: null,
      lng: null,
      isOnline: true,
      website: 'http://kursy.example.org',
    });
    const phone = await check({ name: 'Щось зовсім інше', phone: '+351912345678' });
    expect(ids(phone)).toEqual([byPhone.id]);
    expect(phone.body.candidates[0].reasons).toEqual(['phone']);
    expect(phone.body.candidates[0].distanceM).toBeNull();
    const website = await check({
      name: 'Інша назва',
      ...HERE,
      website: 'http://tanets.example.org/madrid',
    });
    expect(ids(website)).toEqual([byWebsite.id]);
    expect(website.body.candidates[0].reasons).toEqual(['website']);
    const both = await check({
      name: 'Курси',
      website: 'https://www.kursy.example.org/?utm=1',
      phone: online.phone,
    });
    expect(both.body.candidates).toMatchObject([{ id: online.id, reasons: ['phone', 'website'] }]);
    // Another path on the same host is another site; a short number says nothing.
    expect(ids(await check({ name: 'X', website: 'https://tanets.example.org/lisboa' }))).toEqual(
      [],
    );
    expect(ids(await check({ name: 'X', phone: '112 12' }))).toEqual([]);
  });

  it('never offers pending, declined or lapsed services', async () => {
    const phone = '+48 700 700 700';
    const pending = await seed({ name: 'Кав’ярня Ранок', status: 'pending', phone });
    const declined = await seed({ name: 'Кав’ярня Ранок', status: 'declined', phone });
    const lapsed = await seed({ name: 'Кав’ярня Ранок', confirmation: 'lapsed', phone });
    const res = await check({ name: 'Кав’ярня Ранок', ...HERE, phone });
    for (const hidden of [pending, declined, lapsed]) expect(ids(res)).not.toContain(hidden.id);
    expect(res.body.candidates).toEqual([]);
  });

  it('answers only public fields of the service, nothing of its owner', async () => {
    await seed({ name: 'Перукарня Рута', descriptionUa: 'Опис', marketingConsent: true });
    const res = await check({ name: 'Перукарня Рута', ...HERE });
    expect(res.body.candidates.length).toBeGreaterThan(0);
    for (const c of res.body.candidates) expect(Object.keys(c).sort()).toEqual(PUBLIC_KEYS);
    const text = JSON.stringify(res.body);
    for (const secret of ['secret-owner@example.org', 'Таємна', 'Власниця', '999 888 777', ownerId])
      expect(text).not.toContain(secret);
  });

  it('refuses bad input with translated field messages, and a call without the CSRF token', async () => {
    const bad = await check({ name: '', lat: 52, phone: 'call me', website: 'ftp://x', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.message).toBe('validation_failed');
    const byField = Object.fromEntries(
      bad.body.errors.fields.map((f: { field: string; key: string }) => [f.field, f.key]),
    );
    expect(byField).toMatchObject({
      name: 'validation.required',
      phone: 'validation.phone',
      website: 'validation.link_scheme',
    });
    expect(bad.body.errors.fields.map((f: { key: string }) => f.key)).toContain(
      'validation.unknown_field',
    );
    const half = await check({ name: 'Лелека', lat: 52 });
    expect(half.status).toBe(400);
    expect(half.body.errors.fields).toEqual([
      expect.objectContaining({ field: 'lng', key: 'validation.invalid' }),
    ]);
    const noToken = await visitor.post(
      '/api/v1/services/duplicates',
      { name: 'Лелека' },
      { csrf: false, headers: { 'x-forwarded-for': freshIp() } },
    );
    expect(noToken.status).toBe(403);
    expect(noToken.body.errors.message).toBe('csrf_token_invalid');
  });

  it('limits checks per address', async () => {
    const ip = freshIp();
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await check({ name: 'Лелека' }, ip)).status;
    expect(last).toBe(429);
    expect((await check({ name: 'Лелека' })).status).toBe(200);
  });

  it('keeps the partner’s answers: a note for the reviewer and a claim the administrators resolve', async () => {
    const mine = await seed({ name: 'Перукарня «Калина»', website: 'https://kalyna.example.org' });
    const different = await seed({ name: 'Калина Салон', lat: HERE.lat + 0.0003, lng: HERE.lng });
    const hidden = await seed({ name: 'Калина', status: 'pending' });
    const body = registration();
    body.service.duplicates = {
      claimOf: mine.id,
      distinctFrom: [different.id, hidden.id],
    };
    const claimant = new TestClient(server.url);
    await claimant.init();
    const registered = await claimant.post('/api/v1/auth/register', body);
    expect(registered.status).toBe(201);
    const submittedId = registered.body.service.id as string;

    const admin = await loggedIn(server, 'ADMIN');
    const review = await admin.client.get(`/api/v1/admin/services/${submittedId}/duplicates`);
    expect(review.status).toBe(200);
    const byId = new Map(review.body.candidates.map((c: { id: string }) => [c.id, c]));
    expect(byId.get(mine.id)).toMatchObject({ answer: 'mine', claimStatus: 'open' });
    expect(byId.get(different.id)).toMatchObject({ answer: 'different', claimStatus: null });
    expect(byId.has(hidden.id)).toBe(false);

    const claims = await admin.client.get('/api/v1/admin/claims');
    const claim = claims.body.items.find(
      (c: { submitted: { id: string } }) => c.submitted.id === submittedId,
    );
    expect(claim).toMatchObject({
      status: 'open',
      submitted: { id: submittedId, name: body.service.name },
      claimed: { id: mine.id, name: mine.name },
      claimant: { id: registered.body.account.id, email: body.account.email },
    });

    const approved = await admin.client.post(
      `/api/v1/admin/claims/${submittedId}/${mine.id}/approve`,
    );
    expect(approved.status).toBe(200);
    const db = server.database.db;
    const [listed] = await db.select().from(services).where(eq(services.id, mine.id));
    expect(listed!.ownerId).toBe(registered.body.account.id);
    expect(await db.select().from(services).where(eq(services.id, submittedId))).toEqual([]);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'service.claim_approve'), eq(auditLog.targetId, mine.id)));
    expect(entry).toMatchObject({ actorId: admin.id, targetType: 'service' });
    const again = await admin.client.post(`/api/v1/admin/claims/${submittedId}/${mine.id}/approve`);
    expect(again.status).toBe(404);
    const mineNow = await claimant.get('/api/v1/my/services');
    expect(mineNow.body.map((s: { id: string }) => s.id)).toEqual([mine.id]);
  });

  it('declines a claim: the submission stays pending for review', async () => {
    const listed = await seed({ name: 'Ательє Нитка' });
    const owner = await partner(server);
    const added = await owner.client.post('/api/v1/my/services', {
      ...registration().service,
      name: 'Ательє «Нитка»',
      duplicates: { claimOf: listed.id },
    });
    expect(added.status).toBe(201);
    const admin = await loggedIn(server, 'ADMIN');
    const declined = await admin.client.post(
      `/api/v1/admin/claims/${added.body.id}/${listed.id}/decline`,
    );
    expect(declined.status).toBe(200);
    const db = server.database.db;
    const [row] = await db
      .select()
      .from(duplicateAnswers)
      .where(eq(duplicateAnswers.serviceId, added.body.id));
    expect(row).toMatchObject({ claimStatus: 'declined', resolvedBy: admin.id });
    const [submission] = await db.select().from(services).where(eq(services.id, added.body.id));
    expect(submission).toMatchObject({ status: 'pending', ownerId: owner.id });
    const [still] = await db.select().from(services).where(eq(services.id, listed.id));
    expect(still!.ownerId).toBe(ownerId);
    const claims = await admin.client.get('/api/v1/admin/claims');
    expect(
      claims.body.items.some(
        (c: { submitted: { id: string } }) => c.submitted.id === added.body.id,
      ),
    ).toBe(false);
    // Bad answers are refused with field messages.
    const bad = await owner.client.post('/api/v1/my/services', {
      ...registration().service,
      duplicates: { claimOf: 'not-an-id', distinctFrom: [listed.id] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.fields).toEqual([
      expect.objectContaining({ field: 'duplicates.claimOf' }),
    ]);
  });

  it('pages the open claims, oldest first, and refuses a bad page with a field message', async () => {
    const admin = await loggedIn(server, 'ADMIN');
    const db = server.database.db;
    await db.delete(duplicateAnswers);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const listed = await seed({ name: `Пекарня ${i}` });
      const entry = await seed({ name: `Пекарня ${i}`, status: 'pending' });
      await db.insert(duplicateAnswers).values({
        serviceId: entry.id,
        candidateId: listed.id,
        answer: 'mine',
        claimStatus: i === 4 ? 'declined' : 'open',
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
      });
      made.push(entry.id);
    }
    const first = await admin.client.get('/api/v1/admin/claims?pageSize=3');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 4, page: 1, pageSize: 3 });
    const second = await admin.client.get('/api/v1/admin/claims?pageSize=3&page=2');
    const order = [...first.body.items, ...second.body.items].map(
      (c: { submitted: { id: string } }) => c.submitted.id,
    );
    expect(order).toEqual(made.slice(0, 4));
    expect((await admin.client.get('/api/v1/admin/claims')).body.pageSize).toBe(20);
    for (const bad of ['page=0', 'pageSize=101', 'page=x', 'offset=3']) {
      const res = await admin.client.get(`/api/v1/admin/claims?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors.fields.length, bad).toBeGreaterThan(0);
    }
    const partnerClient = await partner(server);
    expect((await partnerClient.client.get('/api/v1/admin/claims')).status).toBe(403);
    expect((await visitor.get('/api/v1/admin/claims')).status).toBe(401);
  });

  it('keeps the name key in step with every insert and change of the name', async () => {
    const row = await seed({ name: 'Старе ім’я' });
    await server.database.db
      .update(services)
      .set({ name: 'Лелека Нова' })
      .where(eq(services.id, row.id));
    const [after] = await server.database.db.select().from(services).where(eq(services.id, row.id));
    expect(after!.nameKey).toBe('leleka nova');
  });
});
