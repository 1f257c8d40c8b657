import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS } from '@poruch/core';
import { TestClient } from './helpers/client.js';
import { registration } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Bad input gets a 4xx with a catalogue key, never a 5xx. */
describe('bad input', () => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ BODY_LIMIT: '4096' });
    client = new TestClient(server.url);
    await client.init();
  });
  afterAll(() => server?.close());

  const expectKey = (res: { status: number; body: any }, status: number, key: string) => {
    expect(res.status).toBe(status);
    expect(res.body.errors.message).toBe(key);
    expect(ERROR_KEYS).toContain(res.body.errors.message);
  };

  it('answers malformed JSON with invalid_json', async () => {
    expectKey(
      await client.post('/api/v1/auth/login', undefined, { raw: '{"email": "a@b.c",' }),
      400,
      'invalid_json',
    );
    expectKey(await client.post('/api/v1/auth/login', undefined, { raw: '' }), 400, 'invalid_json');
  });

  it('answers an oversized body with payload_too_large', async () => {
    const res = await client.post('/api/v1/auth/login', {
      email: 'a@b.c',
      password: 'x'.repeat(10_000),
    });
    expectKey(res, 413, 'payload_too_large');
  });

  it('answers another media type with unsupported_media_type', async () => {
    const res = await client.post('/api/v1/auth/login', undefined, {
      raw: 'email=a@b.c',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectKey(res, 415, 'unsupported_media_type');
  });

  it('names every field and rule broken', async () => {
    const res = await client.post('/api/v1/auth/login', { email: 42 });
    expectKey(res, 400, 'validation_failed');
    expect(res.body.errors.fields).toEqual(
      expect.arrayContaining([
        { field: 'email', key: 'validation.invalid', params: { name: 'email' } },
        { field: 'password', key: 'validation.required', params: { name: 'password' } },
      ]),
    );
    const email = await client.post('/api/v1/auth/login', { email: 'not-an-email', password: 'x' });
    expect(email.body.errors.fields).toEqual([
      { field: 'email', key: 'validation.email', params: { email: 'name@example.com' } },
    ]);
  });

  it('says an empty field is required, not its length rule', async () => {
    const body = registration();
    const res = await client.post('/api/v1/auth/register', {
      ...body,
      account: { ...body.account, password: '', confirmPassword: '' },
    });
    expectKey(res, 400, 'validation_failed');
    expect(res.body.errors.fields).toEqual([
      { field: 'account.password', key: 'validation.required', params: { name: 'password' } },
      {
        field: 'account.confirmPassword',
        key: 'validation.required',
        params: { name: 'confirmPassword' },
      },
    ]);
  });

  it('rejects unknown fields', async () => {
    const res = await client.post('/api/v1/auth/login', {
      email: 'a@b.co',
      password: 'x',
      isAdmin: true,
    });
    expectKey(res, 400, 'validation_failed');
    expect(res.body.errors.fields).toEqual([
      { field: 'isAdmin', key: 'validation.unknown_field', params: { name: 'isAdmin' } },
    ]);
  });

  it('requires the terms, matching passwords, the address confirmation and http links', async () => {
    const body = registration();
    const res = await client.post('/api/v1/auth/register', {
      ...body,
      termsAgreed: false,
      account: { ...body.account, confirmPassword: 'something else' },
      service: {
        ...body.service,
        addressConfirmed: false,
        website: 'javascript:alert(1)',
        phone: 'call me',
      },
    });
    expectKey(res, 400, 'validation_failed');
    const byField = Object.fromEntries(res.body.errors.fields.map((f: any) => [f.field, f.key]));
    expect(byField).toMatchObject({
      termsAgreed: 'validation.must_agree',
      'service.addressConfirmed': 'validation.must_agree',
      'service.website': 'validation.link_scheme',
      'service.phone': 'validation.phone',
    });
    // The passwords rule runs once the rest of the body is valid.
    const mismatch = await client.post('/api/v1/auth/register', {
      ...body,
      account: { ...body.account, confirmPassword: 'something else' },
    });
    expect(mismatch.body.errors.fields).toEqual([
      {
        field: 'account.confirmPassword',
        key: 'validation.passwords_must_match',
        params: { name: 'confirmPassword' },
      },
    ]);
  });

  it('gives length limits with their parameters', async () => {
    const body = registration();
    const res = await client.post('/api/v1/auth/register', {
      ...body,
      account: { ...body.account, password: 'short', confirmPassword: 'short' },
      service: { ...body.service, name: 'N'.repeat(500) },
    });
    expect(res.body.errors.fields).toEqual(
      expect.arrayContaining([
        { field: 'account.password', key: 'validation.min_length', params: { length: 8 } },
        { field: 'service.name', key: 'validation.max_length', params: { length: 120 } },
      ]),
    );
  });

  it('treats SQL and HTML payloads as plain data', async () => {
    const sqlLogin = await client.post('/api/v1/auth/login', {
      email: "x@example.org' OR '1'='1",
      password: "' OR 1=1; DROP TABLE accounts; --",
    });
    expect(sqlLogin.status).toBeGreaterThanOrEqual(400);
    expect(sqlLogin.status).toBeLessThan(500);

    const body = registration();
    const html = '<script>alert(1)</script><img src=x onerror=alert(1)>';
    const reg = await client.post('/api/v1/auth/register', {
      ...body,
      account: { ...body.account, firstName: html, lastName: "Robert'); DROP TABLE accounts;--" },
      service: { ...body.service, name: html, descriptionUa: html },
    });
    expect(reg.status).toBe(201);
    // Stored as written (escaping is the renderer's job), and the tables are still there.
    expect(reg.body.account.firstName).toBe(html);
    expect(reg.body.service.name).toBe(html);
    const check = await client.get('/api/v1/auth/check');
    expect(check.body.account.lastName).toBe("Robert'); DROP TABLE accounts;--");
  });

  it('answers an unknown API path with not_found', async () => {
    expectKey(await client.get('/api/v1/nothing-here'), 404, 'not_found');
    expectKey(await client.post('/api/v1/nothing-here', {}), 404, 'not_found');
  });

  it('answers auth-only routes without a session with unauthorized', async () => {
    const anon = new TestClient(server.url);
    await anon.init();
    expectKey(await anon.put('/api/v1/auth/update', { firstName: 'X' }), 401, 'unauthorized');
    expectKey(await anon.delete('/api/v1/account', { currentPassword: 'x' }), 401, 'unauthorized');
    expectKey(
      await anon.post('/api/v1/auth/notifications', {
        endpoint: 'https://p.example/x',
        keys: { p256dh: 'a', auth: 'b' },
      }),
      401,
      'unauthorized',
    );
  });
});
