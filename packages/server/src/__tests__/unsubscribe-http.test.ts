import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../db/schema.js';
import { unsubscribeToken } from '../mail/unsubscribe.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ MAIL_WORKER: 'false' });
});
afterAll(() => server?.close());

/** A subscribed account and its unsubscribe token. */
async function subscriber() {
  const [row] = await server.database.db
    .insert(accounts)
    .values({
      email: `reader-${Math.random().toString(36).slice(2)}@example.org`,
      passwordHash: 'x',
      type: 'PARTNER',
      firstName: 'Читач',
    })
    .returning();
  return { id: row!.id, token: unsubscribeToken(server.app.mail.unsubscribeSecret, row!.id) };
}

const isUnsubscribed = async (id: string) => {
  const [row] = await server.database.db
    .select({ unsubscribed: accounts.unsubscribed })
    .from(accounts)
    .where(eq(accounts.id, id));
  return row!.unsubscribed;
};

/**
 * A POST over node:http, so the body is sent exactly as given: none at all (no Content-Length,
 * no Transfer-Encoding), an empty one with Content-Length: 0, or an empty chunked one.
 */
function post(
  target: string,
  options: { headers?: Record<string, string>; body?: string; chunked?: boolean },
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(target, server.url),
      { method: 'POST', headers: options.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    if (options.chunked) {
      request.setHeader('transfer-encoding', 'chunked');
      request.flushHeaders();
    } else if (options.body !== undefined) {
      request.setHeader('content-length', Buffer.byteLength(options.body));
    }
    request.end(options.body);
  });
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** The variants a mail client, a browser form or a script sends with `?token=` in the URL. */
const QUERY_VARIANTS: [
  string,
  { headers?: Record<string, string>; body?: string; chunked?: boolean },
][] = [
  ['no body, no Content-Type', {}],
  ['Content-Length: 0, no Content-Type', { body: '' }],
  ['empty chunked body, no Content-Type', { chunked: true }],
  ['empty JSON body', { headers: { 'content-type': JSON_TYPE }, body: '' }],
  [
    'empty JSON body with a charset',
    { headers: { 'content-type': `${JSON_TYPE}; charset=utf-8` }, body: '' },
  ],
  ['empty chunked JSON body', { headers: { 'content-type': JSON_TYPE }, chunked: true }],
  ['JSON {}', { headers: { 'content-type': JSON_TYPE }, body: '{}' }],
  ['empty form body', { headers: { 'content-type': FORM }, body: '' }],
  [
    'RFC 8058 one-click form',
    { headers: { 'content-type': FORM }, body: 'List-Unsubscribe=One-Click' },
  ],
  [
    'RFC 8058 one-click form with a charset',
    { headers: { 'content-type': `${FORM}; charset=utf-8` }, body: 'List-Unsubscribe=One-Click' },
  ],
  [
    'RFC 8058 one-click multipart form',
    {
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
    },
  ],
  ['empty text body', { headers: { 'content-type': 'text/plain' }, body: '' }],
];

describe('POST /api/v1/unsubscribe: the token in the query, whatever the body', () => {
  it.each(QUERY_VARIANTS)('%s: unsubscribes', async (_label, options) => {
    const { id, token } = await subscriber();
    const res = await post(`/api/v1/unsubscribe?token=${encodeURIComponent(token)}`, options);
    expect(res).toEqual({
      status: 200,
      body: { status: true, message: 'unsubscribe_succeeded' },
    });
    expect(await isUnsubscribed(id)).toBe(true);
  });

  it.each(QUERY_VARIANTS)(
    '%s, tampered token: 400 unsubscribe_failed, nothing changes',
    async (_label, options) => {
      const { id, token } = await subscriber();
      const res = await post(
        `/api/v1/unsubscribe?token=${encodeURIComponent(`${token}x`)}`,
        options,
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        errors: { message: 'bad_request' },
        message: 'unsubscribe_failed',
      });
      expect(await isUnsubscribed(id)).toBe(false);
    },
  );

  it('takes the token from a JSON or form body when the query has none', async () => {
    for (const [type, body] of [
      [JSON_TYPE, (t: string) => JSON.stringify({ token: t })],
      [FORM, (t: string) => new URLSearchParams({ token: t }).toString()],
    ] as const) {
      const { id, token } = await subscriber();
      const res = await post('/api/v1/unsubscribe', {
        headers: { 'content-type': type },
        body: body(token),
      });
      expect(res.status, type).toBe(200);
      expect(await isUnsubscribed(id)).toBe(true);
    }
  });

  it('no token anywhere, with an empty body: 400 unsubscribe_failed', async () => {
    for (const options of [{}, { headers: { 'content-type': JSON_TYPE }, body: '' }]) {
      const res = await post('/api/v1/unsubscribe', options);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('unsubscribe_failed');
    }
  });

  it('a non-empty body of another type is 415 unsupported_media_type, nothing changes', async () => {
    const { id, token } = await subscriber();
    for (const type of ['text/plain', 'application/xml', undefined]) {
      const res = await post(`/api/v1/unsubscribe?token=${encodeURIComponent(token)}`, {
        headers: type ? { 'content-type': type } : {},
        body: 'unsubscribe me',
      });
      expect(res.status, type).toBe(415);
      expect(res.body.errors.message).toBe('unsupported_media_type');
    }
    expect(await isUnsubscribed(id)).toBe(false);
  });

  it('a malformed non-empty JSON body is still refused as invalid_json', async () => {
    const { id, token } = await subscriber();
    const res = await post(`/api/v1/unsubscribe?token=${encodeURIComponent(token)}`, {
      headers: { 'content-type': JSON_TYPE },
      body: '{"token":',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.message).toBe('invalid_json');
    expect(await isUnsubscribed(id)).toBe(false);
  });
});
