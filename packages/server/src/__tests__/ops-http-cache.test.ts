import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedIn, partner } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** HTTP caching: plugins/http-cache.ts over the real HTTP server. */
describe('HTTP caching of public GETs', () => {
  let server: TestServer;
  let admin: TestClient;
  let serviceId: string;
  const anon = () => new TestClient(server.url);

  beforeAll(async () => {
    server = await startTestServer({}, (app) => {
      // A new GET route without a cache policy, as a forgetful engineer would add it.
      app.get('/api/v1/ops-test-forgotten', async () => ({ ok: true }));
      // One that declares its policy inline.
      app.get(
        '/api/v1/ops-test-declared',
        { config: { cache: { kind: 'public', maxAge: 5, sMaxAge: 10 } } },
        async () => ({ ok: true }),
      );
    });
    admin = (await loggedIn(server, 'ADMIN')).client;
    const owner = await partner(server);
    serviceId = owner.serviceId;
    expect((await admin.post(`/api/v1/admin/services/${serviceId}/approve`)).status).toBe(200);
    await owner.client.post(`/api/v1/my/services/${serviceId}/vacancies`, {
      name: 'Перукар',
      requirements: 'Досвід',
      description: 'Стрижки',
      salary: '2500 €',
      experience: 'one_two',
      isOpen: true,
    });
  });
  afterAll(() => server?.close());

  const PUBLIC_PATHS = () => [
    '/api/v1/services?q=%D0%BA%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0',
    '/api/v1/services?country=PL',
    `/api/v1/services/${serviceId}`,
    '/api/v1/vacancies',
    '/api/v1/map?bbox=-180,-85,180,85&zoom=2',
    '/api/v1/geocode?address=Warszawa&country=PL',
    '/env',
    '/sitemap.xml',
    '/robots.txt',
  ];

  it('every GET route declares a cache policy; a new route without one is caught', () => {
    expect(server.app.uncachedGetRoutes).toEqual(['/api/v1/ops-test-forgotten']);
  });

  it('public GETs carry a shared-cacheable Cache-Control, Vary: Origin and an ETag, and answer 304 to it', async () => {
    for (const path of PUBLIC_PATHS()) {
      const first = await anon().get(path);
      expect(first.status, path).toBe(200);
      const cc = first.headers.get('cache-control')!;
      expect(cc, path).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
      expect(first.headers.get('vary'), path).toMatch(/Origin/);
      expect(first.headers.get('set-cookie'), path).toBeNull();
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^(W\/)?"[^"]+"$/);

      const again = await anon().get(path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(again.body, path).toBeUndefined();
      expect(again.headers.get('etag'), path).toBe(etag);
      expect(again.headers.get('cache-control'), path).toBe(cc);

      // A weak form of the same tag and a list containing it match too; another tag does not.
      const bare = etag!.replace(/^W\//, '');
      const weak = await anon().get(path, { headers: { 'if-none-match': `"x", W/${bare}` } });
      expect(weak.status, path).toBe(304);
      const other = await anon().get(path, { headers: { 'if-none-match': '"other"' } });
      expect(other.status, path).toBe(200);

      // HEAD gets the same policy, tag and 304.
      const head = await fetch(new URL(path, server.url), { method: 'HEAD' });
      expect(head.headers.get('cache-control'), `HEAD ${path}`).toBe(cc);
      expect(head.headers.get('etag'), `HEAD ${path}`).toBe(etag);
      const head304 = await fetch(new URL(path, server.url), {
        method: 'HEAD',
        headers: { 'if-none-match': etag! },
      });
      expect(head304.status, `HEAD ${path}`).toBe(304);
    }
  });

  it('documented policies: catalogue reads revalidated by browsers (no stale-while-revalidate), short on a CDN; configuration with stale-while-revalidate', async () => {
    const search = await anon().get('/api/v1/services');
    expect(search.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30');
    const profile = await anon().get(`/api/v1/services/${serviceId}`);
    expect(profile.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60');
    const map = await anon().get('/api/v1/map?bbox=-180,-85,180,85&zoom=2');
    expect(map.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30');
    const env = await anon().get('/env');
    expect(env.headers.get('cache-control')).toBe(
      'public, max-age=60, s-maxage=300, stale-while-revalidate=3600',
    );
    const declared = await anon().get('/api/v1/ops-test-declared');
    expect(declared.headers.get('cache-control')).toBe('public, max-age=5, s-maxage=10');
  });

  it('a write that changes the answer gives 200 with a new ETag to the old one', async () => {
    const path = `/api/v1/services/${serviceId}`;
    const before = await anon().get(path);
    const etag = before.headers.get('etag')!;
    expect((await anon().get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);

    const used = await anon().post(`${path}/used`, { browserId: 'ops-cache-browser-1' });
    expect(used.status).toBe(200);

    const after = await anon().get(path, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.usedCount).toBe(before.body.usedCount + 1);
    expect(after.headers.get('etag')).not.toBe(etag);

    // The search lists it with the new count: its ETag moves too.
    const search = '/api/v1/services?country=PL';
    const s1 = await anon().get(search);
    await anon().post(`${path}/used`, { browserId: 'ops-cache-browser-2' });
    const s2 = await anon().get(search, { headers: { 'if-none-match': s1.headers.get('etag')! } });
    expect(s2.status).toBe(200);
    expect(s2.headers.get('etag')).not.toBe(s1.headers.get('etag'));
  });

  it('the map ETag moves when the map changes', async () => {
    const path = '/api/v1/map?bbox=-180,-85,180,85&zoom=2';
    const before = await anon().get(path);
    const etag = before.headers.get('etag')!;
    const other = await partner(server);
    await admin.post(`/api/v1/admin/services/${other.serviceId}/approve`);
    const after = await anon().get(path, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('public answers do not depend on the session: logged in, the same body and policy', async () => {
    for (const path of PUBLIC_PATHS()) {
      const a = await anon().get(path);
      const b = await admin.get(path);
      expect(b.status, path).toBe(200);
      expect(b.body, path).toEqual(a.body);
      expect(b.headers.get('cache-control'), path).toBe(a.headers.get('cache-control'));
      expect(b.headers.get('set-cookie'), path).toBeNull();
    }
  });

  it('credentialed and personal answers are private, no-store, without a shared-cache header or ETag', async () => {
    const owner = await partner(server);
    const cases: [TestClient, string][] = [
      [admin, '/api/v1/auth/check'],
      [anon(), '/api/v1/auth/check'],
      [owner.client, '/api/v1/my/services'],
      [owner.client, `/api/v1/my/services/${owner.serviceId}/vacancies`],
      [admin, '/api/v1/admin/services'],
      [admin, `/api/v1/admin/services/${serviceId}`],
      [admin, '/api/v1/admin/reports'],
      [admin, '/api/v1/admin/audit'],
      [admin, '/api/v1/admin/campaigns'],
      [anon(), '/api/v1/unsubscribe?token=nope'],
      [anon(), '/healthz'],
      [anon(), '/readyz'],
      // Refusals and errors of public routes are not cached either.
      [anon(), '/api/v1/my/services'],
      [anon(), '/api/v1/services/00000000-0000-4000-8000-000000000000'],
      [anon(), '/api/v1/services?page=-1'],
    ];
    for (const [client, path] of cases) {
      const res = await client.get(path);
      const cc = res.headers.get('cache-control');
      expect(cc, path).toBe('private, no-store');
      expect(cc, path).not.toMatch(/public|s-maxage/);
      expect(res.headers.get('etag'), path).toBeNull();
      const again = await client.get(path, { headers: { 'if-none-match': '*' } });
      expect(again.status, path).not.toBe(304);
      const head = await client.request('HEAD', path);
      expect(head.headers.get('cache-control'), `HEAD ${path}`).toBe('private, no-store');
    }
  });

  it('state-changing answers are not stored', async () => {
    const res = await anon().post(`/api/v1/services/${serviceId}/used`, {
      browserId: 'ops-cache-browser-3',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const login = await anon().post('/api/v1/auth/login', {
      email: 'nobody@example.org',
      password: 'wrong password 1',
    });
    expect(login.headers.get('cache-control')).toMatch(/no-store/);
  });
});
