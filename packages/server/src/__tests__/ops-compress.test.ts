import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedIn, partner } from './helpers/actors.js';
import { registration } from './helpers/fixtures.js';
import { rawGet, type RawResponse } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const decode = (r: RawResponse): Buffer => {
  const encoding = r.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(r.body);
  if (encoding === 'gzip') return gunzipSync(r.body);
  expect(encoding ?? 'identity').toBe('identity');
  return r.body;
};

/** Performance: API answers are compressed (@fastify/compress in app.ts), after the ETag hook. */
describe('compression of API answers', () => {
  let server: TestServer;
  // Large enough to be compressed (> 1 KB), small enough to read.
  const big = {
    items: Array.from({ length: 60 }, (_, i) => ({ id: i, name: `Сервіс номер ${i}`, ok: true })),
  };

  beforeAll(async () => {
    server = await startTestServer({}, (app) => {
      app.get(
        '/api/v1/ops-test-big',
        { config: { cache: { kind: 'public', maxAge: 0, sMaxAge: 30 } } },
        async () => big,
      );
      app.get(
        '/api/v1/ops-test-small',
        { config: { cache: { kind: 'public', maxAge: 0, sMaxAge: 30 } } },
        async () => ({ ok: true }),
      );
    });
    // The search list sends its cached JSON bytes (a Buffer): enough services for over 1 KB.
    const { client: admin } = await loggedIn(server, 'ADMIN');
    for (let i = 0; i < 4; i++) {
      const owner = await partner(server);
      await owner.client.put(`/api/v1/my/services/${owner.serviceId}`, {
        ...registration().service,
        name: `Перукарня «Калина» ${i}`,
        descriptionUa: 'Стрижки у центрі Варшави, фарбування, укладки. '.repeat(4),
      });
      expect((await admin.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status).toBe(
        200,
      );
    }
  });
  afterAll(() => server?.close());

  it('a large JSON answer is brotli- or gzip-encoded by Accept-Encoding and decodes to the same JSON', async () => {
    for (const path of ['/api/v1/ops-test-big', '/api/v1/services']) {
      const plain = await rawGet(`${server.url}${path}`);
      expect(plain.status, path).toBe(200);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.body.length, path).toBeGreaterThan(1024);
      const json = JSON.parse(plain.body.toString('utf8')) as unknown;
      if (path === '/api/v1/ops-test-big') expect(json).toEqual(big);
      else expect((json as { items: unknown[] }).items).toHaveLength(4);

      const br = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.body.length, path).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decode(br).toString('utf8')), path).toEqual(json);

      const gz = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(JSON.parse(decode(gz).toString('utf8')), path).toEqual(json);

      // br refused with q=0: gzip.
      const noBr = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'br;q=0, gzip' });
      expect(noBr.headers['content-encoding'], path).toBe('gzip');

      for (const r of [plain, br, gz]) {
        expect(r.headers.vary, path).toMatch(/accept-encoding/i);
        expect(r.headers.vary, path).toMatch(/Origin/);
        expect(r.headers.vary!.match(/accept-encoding/gi), path).toHaveLength(1);
      }
    }
  });

  it('the ETag is that of the uncompressed body, the same for every encoding, and 304 works with compression', async () => {
    for (const path of ['/api/v1/ops-test-big', '/api/v1/services']) {
      const plain = await rawGet(`${server.url}${path}`);
      const br = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'br' });
      const gz = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'gzip' });
      const etag = plain.headers.etag!;
      expect(etag, path).toMatch(/^"[^"]+"$/);
      expect(br.headers.etag, path).toBe(etag);
      expect(gz.headers.etag, path).toBe(etag);

      // A tag got with one encoding revalidates with any other.
      for (const encoding of ['br', 'gzip', 'identity']) {
        const again = await rawGet(`${server.url}${path}`, {
          'accept-encoding': encoding,
          'if-none-match': etag,
        });
        expect(again.status, `${path} ${encoding}`).toBe(304);
        expect(again.body.length, `${path} ${encoding}`).toBe(0);
        expect(again.headers['content-encoding'], `${path} ${encoding}`).toBeUndefined();
        expect(again.headers.etag, `${path} ${encoding}`).toBe(etag);
        expect(again.headers.vary, `${path} ${encoding}`).toMatch(/accept-encoding/i);
      }
      const stale = await rawGet(`${server.url}${path}`, {
        'accept-encoding': 'br',
        'if-none-match': '"other"',
      });
      expect(stale.status, path).toBe(200);
      expect(stale.headers['content-encoding'], path).toBe('br');
    }
  });

  it('small answers are not compressed', async () => {
    const small = await rawGet(`${server.url}/api/v1/ops-test-small`, { 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ ok: true });
    // Still varies: a bigger answer at the same URL would be compressed.
    expect(small.headers.vary).toMatch(/accept-encoding/i);

    const health = await rawGet(`${server.url}/healthz`, { 'accept-encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('the open-data files are compressed at the fastest level and decode to the same bytes', async () => {
    // gzip's header says how it was made (XFL, byte 8): 4 for the fastest level, 0 for the
    // default level the other answers use.
    const xfl = (r: RawResponse) => r.body[8];
    const api = await rawGet(`${server.url}/api/v1/services`, { 'accept-encoding': 'gzip' });
    expect(xfl(api)).toBe(0);
    for (const file of ['services.csv', 'services.geojson']) {
      const url = `${server.url}/api/v1/open-data/${file}`;
      const plain = await rawGet(url);
      expect(plain.body.length, file).toBeGreaterThan(1024);
      const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], file).toBe('gzip');
      expect(xfl(gz), file).toBe(4);
      expect(decode(gz).equals(plain.body), file).toBe(true);
      const br = await rawGet(url, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding'], file).toBe('br');
      expect(decode(br).equals(plain.body), file).toBe(true);
      expect(br.headers.etag, file).toBe(plain.headers.etag);
    }
  });
});
