import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partner } from './helpers/actors.js';
import { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample (`name{labels} value`) in a Prometheus text exposition, or 0. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

/** Observability: Prometheus metrics behind a bearer token. */
describe('/metrics', () => {
  let server: TestServer;
  let off: TestServer;
  const scrape = async () => {
    const res = await new TestClient(server.url).get<string>('/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    // No worker: mails stay queued, so the outbox depth is what the requests put there.
    server = await startTestServer({ METRICS_TOKEN: TOKEN, MAIL_WORKER: 'false' });
    off = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
    await off?.close();
  });

  it('is off without METRICS_TOKEN (404) and needs the bearer token when on (401)', async () => {
    const offRes = await new TestClient(off.url).get('/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(offRes.status).toBe(404);

    const client = new TestClient(server.url);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer ']) {
      const res = await client.get('/metrics', {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(String(res.body)).not.toContain('http_requests_total');
    }
    const ok = await client.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
  });

  it('has request rates and latency by route and status, outbox depth, pool use and process metrics', async () => {
    const text = await scrape();
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'poruch_outbox_messages',
      'poruch_db_pool_connections',
      'poruch_db_info',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name}`, 'm'));
    }
    expect(sample(text, 'poruch_db_pool_connections', { pool: 'primary', state: 'max' })).toBe(
      server.database.kind === 'postgres' ? 10 : 1,
    );
    const total = sample(text, 'poruch_db_pool_connections', { pool: 'primary', state: 'total' });
    if (server.database.kind === 'postgres') expect(total).toBeGreaterThanOrEqual(1);
    else expect(total).toBe(1);
    expect(sample(text, 'poruch_db_info', { kind: server.database.kind })).toBe(1);
  });

  it('moves after requests: counts, histogram and outbox depth', async () => {
    const before = await scrape();
    const client = new TestClient(server.url);
    for (let i = 0; i < 5; i++) expect((await client.get('/api/v1/services')).status).toBe(200);
    await client.get('/api/v1/services/00000000-0000-4000-8000-000000000000');
    await client.get('/no/such/path');
    // A registration queues a welcome mail (and notices to administrators, none here).
    await partner(server);
    const after = await scrape();

    const ok = { method: 'GET', route: '/api/v1/services', status: '200' };
    expect(
      sample(after, 'http_requests_total', ok) - sample(before, 'http_requests_total', ok),
    ).toBe(5);
    expect(
      sample(after, 'http_request_duration_seconds_count', ok) -
        sample(before, 'http_request_duration_seconds_count', ok),
    ).toBe(5);
    expect(
      sample(after, 'http_request_duration_seconds_bucket', { ...ok, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(5);
    // Route patterns, never raw URLs with ids.
    expect(
      sample(after, 'http_requests_total', {
        method: 'GET',
        route: '/api/v1/services/:id',
        status: '404',
      }),
    ).toBe(1);
    expect(after).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(
      sample(after, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(1);
    expect(
      sample(after, 'http_requests_total', {
        method: 'POST',
        route: '/api/v1/auth/register',
        status: '201',
      }),
    ).toBe(1);
    expect(
      sample(after, 'poruch_outbox_messages', { status: 'queued' }) -
        sample(before, 'poruch_outbox_messages', { status: 'queued' }),
    ).toBe(1);
    expect(sample(after, 'poruch_outbox_messages', { status: 'failed' })).toBe(0);
  });
});
