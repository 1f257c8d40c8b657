import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceProfileSchema } from '@poruch/core';
import { findPublicProfile } from '../repositories/catalogue.js';
import { searchCacheListening } from '../search/cache.js';
import { loggedIn, partner } from './helpers/actors.js';
import { cacheQuiet, setUsedCountSilently } from './helpers/cache.js';
import type { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * `GET /api/v1/services/:id` keeps each found profile's JSON and ETag in memory until the next
 * write to services or vacancies (routes/api/v1/services.ts, plugins/profilePageCache.ts): a
 * repeated fetch costs no query, and no fetch after a write through the app shows what the write
 * changed as it was before.
 */
describe('the public profile, kept until the next write', () => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    admin = (await loggedIn(server, 'ADMIN')).client;
    // Without the listener each fetch reads the generation, which a silent change does not move.
    await vi.waitFor(async () => expect(await searchCacheListening(server.app.db)).toBe(true));
  });
  afterAll(() => server?.close());

  /** A visitor's fetch, with no cookies. */
  const fetchProfile = async (id: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/api/v1/services/${id}`, { headers });
    return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
  };
  /** What the database holds now, as the route would answer it (null: 404). */
  const fresh = async (id: string) => {
    const profile = await findPublicProfile(server.database.db, id);
    return profile && JSON.stringify(serviceProfileSchema.parse(profile));
  };

  it('a second fetch is served from memory: a change without a notification does not show, the next write through the app does', async () => {
    const owner = await partner(server);
    const id = owner.serviceId;
    expect((await admin.post(`/api/v1/admin/services/${id}/approve`)).status).toBe(200);
    await cacheQuiet(server);
    const first = await fetchProfile(id);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).usedCount).toBe(0);

    await setUsedCountSilently(server, id, 41);
    expect((await findPublicProfile(server.database.db, id))?.usedCount).toBe(41);
    const second = await fetchProfile(id);
    expect(second).toEqual(first);
    // The same service by its id in capitals is the same kept answer.
    expect(await fetchProfile(id.toUpperCase())).toEqual(first);
    expect((await fetchProfile(id, { 'if-none-match': first.etag! })).status).toBe(304);

    // A used mark through the app retires the kept answer before its response.
    const mark = await admin.post(`/api/v1/services/${id}/used`, {
      browserId: 'api-cache-browser-one',
    });
    expect(mark.body).toEqual({ usedCount: 42, counted: true });
    const third = await fetchProfile(id, { 'if-none-match': first.etag! });
    expect(third.status).toBe(200);
    expect(JSON.parse(third.body).usedCount).toBe(42);
    expect(third.etag).not.toBe(first.etag);
  });

  it('after every kind of write the next fetch is what the database holds: approval, used mark, vacancies, map, partner flag, edit, decline, deletion', async () => {
    const owner = await partner(server);
    const id = owner.serviceId;
    const { service } = owner.body;
    let last = await fetchProfile(id);
    expect(last.status).toBe(404);
    /** Fetches after `write`: what the database holds, changed, and the same on a second fetch. */
    const next = async (write: () => Promise<{ status: number }>, check: (p: unknown) => void) => {
      expect(await fetchProfile(id)).toEqual(last); // kept, or not found, until the write
      expect([200, 201]).toContain((await write()).status);
      const after = await fetchProfile(id);
      const now = await fresh(id);
      if (now === null) expect(after.status).toBe(404);
      else {
        expect(after.status).toBe(200);
        expect(after.body).toBe(now);
        check(JSON.parse(after.body));
      }
      expect(after.body).not.toBe(last.body);
      expect(after.etag).not.toBe(last.etag);
      expect(await fetchProfile(id)).toEqual(after);
      last = after;
    };
    const notFound = () => {
      throw new Error('expected 404');
    };

    await next(
      () => admin.post(`/api/v1/admin/services/${id}/approve`),
      (p) => expect(p).toMatchObject({ id, usedCount: 0, vacancies: [] }),
    );
    await next(
      () => admin.post(`/api/v1/services/${id}/used`, { browserId: 'api-cache-browser-writes' }),
      (p) => expect(p).toMatchObject({ usedCount: 1 }),
    );
    let vacancyId = '';
    await next(
      async () => {
        const res = await owner.client.post(`/api/v1/my/services/${id}/vacancies`, {
          name: 'Перукар',
        });
        vacancyId = res.body.id;
        return res;
      },
      (p) => expect(p).toMatchObject({ haveVacancy: true, vacancies: [{ name: 'Перукар' }] }),
    );
    await next(
      () => owner.client.put(`/api/v1/my/vacancies/${vacancyId}/open`, { isOpen: false }),
      (p) => expect(p).toMatchObject({ haveVacancy: false, vacancies: [] }),
    );
    // Hiding from the map changes nothing the profile shows: a silent change before it shows
    // only if the hiding's own notification retired the kept answer.
    await cacheQuiet(server);
    await setUsedCountSilently(server, id, 7);
    expect(await fetchProfile(id)).toEqual(last);
    await next(
      () => owner.client.put(`/api/v1/my/services/${id}/map`, { showOnMap: false }),
      (p) => expect(p).toMatchObject({ usedCount: 7 }),
    );
    await next(
      () => admin.put(`/api/v1/admin/services/${id}/partner`, { isPartner: true }),
      (p) => expect(p).toMatchObject({ isPartner: true }),
    );
    await next(
      () => owner.client.put(`/api/v1/my/services/${id}`, { ...service, name: 'Салон «Верба»' }),
      notFound, // pending again
    );
    await next(
      () => admin.post(`/api/v1/admin/services/${id}/approve`),
      (p) => expect(p).toMatchObject({ name: 'Салон «Верба»' }),
    );
    await next(
      () => admin.post(`/api/v1/admin/services/${id}/decline`, { reason: 'Не той сервіс' }),
      notFound,
    );
    await next(
      () => admin.post(`/api/v1/admin/services/${id}/approve`),
      (p) => expect(p).toMatchObject({ name: 'Салон «Верба»' }),
    );
    await next(() => owner.client.delete(`/api/v1/my/services/${id}`), notFound);
  });
});
