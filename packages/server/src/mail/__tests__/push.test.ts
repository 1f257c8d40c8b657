import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { mailOutbox, pushSubscriptions } from '../../db/schema.js';
import { loggedIn, partner } from '../../__tests__/helpers/actors.js';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { sendPush, type ResolveHost } from '../push.js';
import { waitUntil } from './helpers.js';
import { PUSH_HOST, browserSubscription, decrypt, startPushService } from './pushService.js';

describe('web push', () => {
  let push: Awaited<ReturnType<typeof startPushService>>;
  let server: TestServer;

  beforeAll(async () => {
    push = await startPushService();
    // The push service of this test runs on loopback.
    server = await startTestServer({
      MAIL_POLL_MS: '50',
      MAIL_RETRY_BASE_MS: '200',
      PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
    });
  });
  afterAll(async () => {
    await server?.close();
    await push?.close();
  });

  it('sends an encrypted push with a VAPID header when a service is approved, and removes a subscription answering 410', async () => {
    const { vapidPublicKey } = (await new TestClient(server.url).get('/env')).body;
    const owner = await partner(server);
    const phone = browserSubscription(`${push.origin}/push/phone`);
    const old = browserSubscription(`${push.origin}/gone/old-laptop`);
    for (const s of [phone, old]) {
      expect((await owner.client.post('/api/v1/auth/notifications', s.json)).status).toBe(200);
    }
    const admin = await loggedIn(server, 'ADMIN');
    expect(
      (await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status,
    ).toBe(200);

    const got = await waitUntil(() => push.received.find((r) => r.path === '/push/phone'));
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(got.headers['ttl']).toBe(String(24 * 60 * 60));
    const auth = String(got.headers.authorization);
    const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(auth);
    expect(m).not.toBeNull();
    expect(m![2]).toBe(vapidPublicKey);
    const claims = JSON.parse(Buffer.from(m![1]!.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ aud: push.origin, sub: 'mailto:no-reply@poruch.local' });
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    // The payload is encrypted: only the subscription's key decrypts it (Ukrainian owner).
    expect(got.body.includes(Buffer.from('схвалено'))).toBe(false);
    expect(decrypt(got, phone)).toEqual({
      title: 'Сервіс схвалено',
      body: `«${owner.body.service.name}» тепер у каталозі й на мапі.`,
      url: 'http://localhost:8080/dashboard',
      tag: 'serviceApproved',
    });

    // 410 Gone: the subscription is removed; the other stays.
    await waitUntil(() => push.received.some((r) => r.path === '/gone/old-laptop'));
    await waitUntil(async () => {
      const subs = await server.database.db
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.accountId, owner.id));
      return subs.length === 1 && subs[0]!.endpoint === phone.json.endpoint;
    });
    // The push service answers before the worker writes the outcome: wait for both rows to settle.
    const statuses = async () =>
      (
        await server.database.db
          .select({ status: mailOutbox.status })
          .from(mailOutbox)
          .where(eq(mailOutbox.template, 'push:serviceApproved'))
      )
        .map((r) => r.status)
        .sort()
        .join();
    await waitUntil(async () => !/queued|sending/.test(await statuses()));
    expect(await statuses()).toBe('failed,sent');
  });

  it('pushes a new report to administrators and a decline with its reason to the owner', async () => {
    const admin = await loggedIn(server, 'ADMIN');
    const desk = browserSubscription(`${push.origin}/push/admin-desk`);
    await admin.client.post('/api/v1/auth/notifications', desk.json);
    const owner = await partner(server);
    const sub = browserSubscription(`${push.origin}/push/owner2`);
    await owner.client.post('/api/v1/auth/notifications', sub.json);

    await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/approve`);
    const reporter = new TestClient(server.url);
    expect(
      (
        await reporter.post('/api/v1/reports', {
          serviceId: owner.serviceId,
          reason: 'wrong_address',
          description: '',
        })
      ).status,
    ).toBe(201);
    const toAdmin = await waitUntil(() => push.received.find((r) => r.path === '/push/admin-desk'));
    expect(decrypt(toAdmin, desk)).toMatchObject({ title: 'Нова скарга' });

    await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/decline`, {
      reason: 'Закрито',
    });
    const declined = await waitUntil(() =>
      push.received
        .filter((r) => r.path === '/push/owner2')
        .map((r) => decrypt(r, sub))
        .find((p) => p.title === 'Сервіс відхилено'),
    );
    expect(declined.body).toContain('Закрито');
  });
});

/** A TCP listener on loopback that no push may ever reach: it counts the connections it gets. */
async function startTripwire() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Endpoints on an internal host, each written the way a browser would never give but an attacker
 * may: address literals in every IPv4 and IPv6 form, and local names. `port` is a loopback port.
 */
const internalEndpoints = (port: number, x = 'x') => [
  // Loopback in other spellings: IPv4-compatible, IPv4-mapped, decimal, hex, octal, short forms.
  `https://[::127.0.0.1]:${port}/${x}`,
  `https://[::ffff:127.0.0.1]:${port}/${x}`,
  `https://[::ffff:7f00:1]:${port}/${x}`,
  `https://[0:0:0:0:0:ffff:127.0.0.1]:${port}/${x}`,
  `https://2130706433:${port}/${x}`,
  `https://0x7f.1:${port}/${x}`,
  `https://017700000001:${port}/${x}`,
  `https://127.1:${port}/${x}`,
  `https://127.0.0.1.:${port}/${x}`,
  `https://[::1]:${port}/${x}`,
  // Local names, with the trailing dots that make a name absolute.
  `https://localhost.:${port}/${x}`,
  `https://LOCALHOST..:${port}/${x}`,
  `https://push.localhost.:${port}/${x}`,
  `https://printer.local/${x}`,
  `https://metadata.google.internal/computeMetadata/v1/${x}`,
  `https://router.home.arpa/${x}`,
  `https://intranet./${x}`,
  // IPv4 embedded in IPv6: NAT64, 6to4, Teredo, SIIT.
  `https://[64:ff9b::7f00:1]/${x}`,
  `https://[64:ff9b:1::a00:1]/${x}`,
  `https://[2002:7f00:1::]/${x}`,
  `https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/${x}`,
  `https://[::ffff:0:a00:1]/${x}`,
  // IPv6 ranges: site-local, unique-local, link-local, unspecified, multicast, documentation.
  `https://[fec0::1]/${x}`,
  `https://[fc00::1]/${x}`,
  `https://[fd12:3456::1]/${x}`,
  `https://[fe80::1]/${x}`,
  `https://[::]/${x}`,
  `https://[ff02::1]/${x}`,
  `https://[2001:db8::1]/${x}`,
  `https://[100::1]/${x}`,
  `https://[4000::1]/${x}`,
  // IPv4 ranges.
  `https://0.0.0.0/${x}`,
  `https://0/${x}`,
  `https://10.1.2.3/${x}`,
  `https://100.64.0.1/${x}`,
  `https://169.254.169.254/latest/meta-data/${x}`,
  `https://172.16.0.1/${x}`,
  `https://192.0.0.170/${x}`,
  `https://192.168.0.10/${x}`,
  `https://198.18.0.1/${x}`,
  `https://224.0.0.1/${x}`,
  `https://240.0.0.1/${x}`,
  `https://255.255.255.255/${x}`,
];

describe('push endpoints cannot reach internal hosts', () => {
  let push: Awaited<ReturnType<typeof startPushService>>;
  let server: TestServer;

  beforeAll(async () => {
    push = await startPushService();
    server = await startTestServer({ MAIL_POLL_MS: '50', MAIL_RETRY_BASE_MS: '200' });
  });
  afterAll(async () => {
    await server?.close();
    await push?.close();
  });

  it('refuses to store an endpoint on an internal host, in any spelling, and accepts a push service', async () => {
    const owner = await partner(server);
    for (const endpoint of [
      ...internalEndpoints(push.port),
      `${push.origin}/push/loopback`,
      'https://localhost/push',
      'https://push.localhost/push',
      'https://intranet/push',
      'https://user:secret@push.example.org/push',
    ]) {
      const res = await owner.client.post(
        '/api/v1/auth/notifications',
        browserSubscription(endpoint).json,
      );
      expect(res.status, endpoint).toBe(400);
      expect(res.body.errors, endpoint).toEqual({
        message: 'validation_failed',
        fields: [{ field: 'endpoint', key: 'validation.push_endpoint' }],
      });
    }
    // Not a URL of an https push service at all: the schema's own messages.
    for (const endpoint of ['http://push.example.org/send/1', 'https://[fe80::1%25eth0]/x']) {
      const res = await owner.client.post(
        '/api/v1/auth/notifications',
        browserSubscription(endpoint).json,
      );
      expect(res.status, endpoint).toBe(400);
      expect(res.body.errors.message, endpoint).toBe('validation_failed');
      expect(res.body.errors.fields[0], endpoint).toMatchObject({ field: 'endpoint' });
    }
    const ok = browserSubscription('https://updates.push.example.org/wpush/v2/abc');
    expect((await owner.client.post('/api/v1/auth/notifications', ok.json)).status).toBe(200);
    const v6 = browserSubscription('https://[2606:4700::1]/wpush/v2/abc');
    expect((await owner.client.post('/api/v1/auth/notifications', v6.json)).status).toBe(200);
    const stored = await server.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.accountId, owner.id));
    expect(stored.map((s) => s.endpoint).sort()).toEqual(
      [v6.json.endpoint, ok.json.endpoint].sort(),
    );
  });

  it('never sends to a stored endpoint on an internal host, in any spelling, and drops it', async () => {
    const owner = await partner(server);
    // Stored before the rule, or a name that points inside now: written straight to the table.
    const inside = [`${push.origin}/push/inside`, ...internalEndpoints(push.port, 'stored')];
    await server.database.db.insert(pushSubscriptions).values(
      inside.map((endpoint) => {
        const { keys } = browserSubscription(endpoint).json;
        return { accountId: owner.id, endpoint, p256dh: keys.p256dh, auth: keys.auth };
      }),
    );
    const admin = await loggedIn(server, 'ADMIN');
    expect(
      (await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status,
    ).toBe(200);
    const rows = await waitUntil(async () => {
      const r = await server.database.db
        .select({ status: mailOutbox.status, lastError: mailOutbox.lastError })
        .from(mailOutbox)
        .where(eq(mailOutbox.template, 'push:serviceApproved'));
      return r.length === inside.length && r.every((x) => x.status === 'failed') ? r : null;
    });
    for (const row of rows) expect(row.lastError).toContain('not on a public address');
    expect(push.received).toEqual([]);
    const left = await server.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.accountId, owner.id));
    expect(left).toEqual([]);
  });
});

describe('sendPush connects only to the address it checked', () => {
  let push: Awaited<ReturnType<typeof startPushService>>;
  let tripwire: Awaited<ReturnType<typeof startTripwire>>;
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:test@poruch.local' };
  const message = { title: 't', body: 'b', url: 'https://poruch.local/', tag: 'serviceApproved' };
  const subscription = (endpoint: string) => {
    const { keys } = browserSubscription(endpoint).json;
    return { endpoint, ...keys };
  };
  /** A resolver that answers each call with the next of `answers` (the last one from then on). */
  const resolver = (...answers: string[][]) => {
    const asked: string[] = [];
    const resolve: ResolveHost = async (hostname) => {
      asked.push(hostname);
      const answer = answers[Math.min(asked.length, answers.length) - 1]!;
      return answer.map((address): LookupAddress => ({ address, family: net.isIP(address) }));
    };
    return { resolve, asked };
  };

  beforeAll(async () => {
    push = await startPushService();
    tripwire = await startTripwire();
  });
  afterAll(async () => {
    await push?.close();
    await tripwire?.close();
  });

  it('connects to the public address it checked when the name resolves to loopback the second time (DNS rebinding)', async () => {
    const { resolve, asked } = resolver(['8.8.8.8'], ['127.0.0.1']);
    const outcome = await sendPush(
      vapid,
      subscription(`https://${PUSH_HOST}:${tripwire.port}/rebind`),
      message,
      { resolve, timeoutMs: 2000 },
    );
    // The connection went to 8.8.8.8 (nothing answers there on this port), never to loopback.
    expect(outcome).toMatchObject({ kind: 'failed', permanent: false });
    expect(asked).toEqual([PUSH_HOST]);
    expect(tripwire.connections()).toBe(0);
  });

  it('refuses, without connecting, a name with any address that is not public', async () => {
    for (const answer of [
      ['8.8.8.8', '127.0.0.1'],
      ['2606:4700::1', '::1'],
      ['::ffff:127.0.0.1'],
      ['::ffff:7f00:1'],
      ['::7f00:1'],
      ['fec0::1'],
      ['fc00::1'],
      ['fe80::1%eth0'],
      ['64:ff9b::7f00:1'],
      ['2002:7f00:1::'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      ['::'],
      ['0.0.0.0'],
      ['10.0.0.1'],
      ['100.64.0.1'],
      ['169.254.169.254'],
      ['172.31.255.255'],
      ['192.168.1.1'],
      ['224.0.0.251'],
      ['255.255.255.255'],
    ]) {
      const { resolve, asked } = resolver(answer);
      const outcome = await sendPush(
        vapid,
        subscription(`https://${PUSH_HOST}:${tripwire.port}/inside`),
        message,
        { resolve },
      );
      expect(outcome, answer.join()).toEqual({
        kind: 'gone',
        error: 'endpoint not on a public address',
      });
      expect(asked, answer.join()).toEqual([PUSH_HOST]);
    }
    expect(tripwire.connections()).toBe(0);
  });

  it('sends to the resolved address with the host name for TLS and Host, and follows no redirect', async () => {
    // A push service on the same network (PUSH_ALLOW_PRIVATE_ENDPOINTS): the name is resolved by
    // the given resolver only; the system resolver does not know it as 127.0.0.1.
    const { resolve, asked } = resolver(['127.0.0.1']);
    const sent = await sendPush(
      vapid,
      subscription(`https://${PUSH_HOST}:${push.port}/push/pinned`),
      message,
      { resolve, allowPrivate: true },
    );
    expect(sent).toEqual({ kind: 'sent' });
    expect(asked).toEqual([PUSH_HOST]);
    const got = push.received.find((r) => r.path === '/push/pinned')!;
    expect(got.servername).toBe(PUSH_HOST);
    expect(got.headers.host).toBe(`${PUSH_HOST}:${push.port}`);

    const to = `https://127.0.0.1:${tripwire.port}/elsewhere`;
    const moved = await sendPush(
      vapid,
      subscription(`${push.origin}/moved?to=${encodeURIComponent(to)}`),
      message,
      { allowPrivate: true },
    );
    expect(moved).toMatchObject({ kind: 'failed', permanent: true });
    expect(tripwire.connections()).toBe(0);
  });
});
