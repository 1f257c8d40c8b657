import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicePageSchema, vacancyPageSchema } from '@poruch/core';
import { services } from '../db/schema.js';
import { loggedIn, partner } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** The public search routes over HTTP, on services written through the API. */
describe('GET services and GET vacancies', () => {
  let server: TestServer;
  let web: TestClient;
  let salonId: string;
  let lawyerId: string;

  beforeAll(async () => {
    server = await startTestServer();
    web = new TestClient(server.url);
    const { client: admin } = await loggedIn(server, 'ADMIN');

    const salon = await partner(server);
    salonId = salon.serviceId;
    await salon.client.put(`/api/v1/my/services/${salonId}`, {
      ...registration().service,
      name: 'Перукарня «Калина»',
      descriptionUa: 'Стрижки у центрі Києва та Варшави',
      descriptionOther: 'Haircuts',
    });
    await salon.client.post(`/api/v1/my/services/${salonId}/vacancies`, {
      name: 'Перукар-універсал',
      experience: 'one_two',
    });
    await admin.post(`/api/v1/admin/services/${salonId}/approve`);

    const lawyer = await partner(server);
    lawyerId = lawyer.serviceId;
    await lawyer.client.put(`/api/v1/my/services/${lawyerId}`, {
      ...registration().service,
      name: 'Legal advice Pravo',
      category: 'legal_services',
      countryCode: 'DE',
      isOnline: true,
      descriptionUa: 'Юридична допомога з дозволом на проживання',
      descriptionOther: 'Residence permits and temporary protection',
    });
    await admin.post(`/api/v1/admin/services/${lawyerId}/approve`);

    // A pending service never appears.
    const pending = await partner(server);
    await pending.client.put(`/api/v1/my/services/${pending.serviceId}`, {
      ...registration().service,
      name: 'Перукарня Чекає',
    });
  });
  afterAll(() => server?.close());

  const ids = (body: unknown) => servicePageSchema.parse(body).items.map((s) => s.id);

  it('finds by Latin transliteration, typos and prefixes, approved services only', async () => {
    for (const q of ['перукарня', 'perukarnia', 'Perukarnya', 'перукрня', 'перук']) {
      const res = await web.get(`/api/v1/services?q=${encodeURIComponent(q)}`, {
        headers: { origin: 'https://diaspora.example.com' },
      });
      expect(res.status, q).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(ids(res.body), q).toEqual([salonId]);
    }
    const lawyer = await web.get('/api/v1/services?q=pravo');
    expect(ids(lawyer.body)).toEqual([lawyerId]);
  });

  it('filters by country, category, online and vacancy, and pages with a total', async () => {
    expect(ids((await web.get('/api/v1/services?country=DE')).body)).toEqual([lawyerId]);
    expect(ids((await web.get('/api/v1/services?category=legal_services')).body)).toEqual([
      lawyerId,
    ]);
    expect(ids((await web.get('/api/v1/services?online=true')).body)).toEqual([lawyerId]);
    expect(ids((await web.get('/api/v1/services?hasVacancy=true')).body)).toEqual([salonId]);
    const all = await web.get('/api/v1/services?sort=newest&pageSize=1');
    expect(all.body).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(all.body.items).toHaveLength(1);
    const near = await web.get('/api/v1/services?near=52.23,21.01&radiusKm=50&sort=distance');
    expect(near.body.items[0].distanceKm).toBeLessThan(50);
    expect(near.body.items[0]).not.toHaveProperty('ownerId');
  });

  it('answers bad filters with validation_failed, never a 5xx', async () => {
    for (const qs of [
      'category=spaceships',
      'bbox=1,2,3',
      'near=91,0',
      'pageSize=1000',
      'sort=random',
      'online=maybe',
      'unknown=1',
      `q=${'x'.repeat(300)}`,
    ]) {
      const res = await web.get(`/api/v1/services?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.errors.message, qs).toBe('validation_failed');
    }
    const sql = await web.get(
      `/api/v1/services?q=${encodeURIComponent("'; DROP TABLE services; --")}`,
    );
    expect(sql.status).toBe(200);
    expect(
      (await server.database.db.select().from(services).where(eq(services.id, salonId))).length,
    ).toBe(1);
  });

  it('searches vacancies of approved services', async () => {
    const res = await web.get(`/api/v1/vacancies?q=${encodeURIComponent('perukar')}`);
    expect(res.status).toBe(200);
    const page = vacancyPageSchema.parse(res.body);
    expect(page.items.map((v) => v.service.id)).toEqual([salonId]);
    expect(page.items[0]).toMatchObject({
      name: 'Перукар-універсал',
      experience: 'one_two',
      isOpen: true,
    });
    const byService = await web.get(`/api/v1/vacancies?serviceId=${lawyerId}`);
    expect(byService.body.total).toBe(0);
    const byExperience = await web.get('/api/v1/vacancies?experience=six_plus');
    expect(byExperience.body.total).toBe(0);
    expect((await web.get('/api/v1/vacancies?experience=ten')).status).toBe(400);
  });

  it('stores the chosen geocoder candidate with its position', async () => {
    const [row] = await server.database.db.select().from(services).where(eq(services.id, salonId));
    expect(row).toMatchObject({ lat: 52.2297, lng: 21.0122 });
    expect(row!.addressDetails).toMatchObject({
      city: 'Warszawa',
      approximate: true,
      source: 'gazetteer',
    });
  });
});
