import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, pushSubscriptions } from '../../db/schema.js';
import { loggedIn, partner } from '../../__tests__/helpers/actors.js';
import { TestClient } from '../../__tests__/helpers/client.js';
import { startTestServer, type TestServer } from '../../__tests__/helpers/server.js';
import { waitUntil } from './helpers.js';

// web-push encrypts with http_ece; the test decrypts with the same library, as a browser would.
const requireFromWebPush = createRequire(createRequire(import.meta.url).resolve('web-push'));
const ece = requireFromWebPush('http_ece') as {
  decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
};

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A push service on loopback (HTTPS with a self-signed certificate, as web-push only speaks
 * https). Paths starting with /gone answer 410, the rest 201.
 */
async function startPushService() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'poruch-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const received: Received[] = [];
  const server = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'key.pem')), cert },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.statusCode = req.url!.startsWith('/gone') ? 410 : 201;
        res.end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The server under test runs in this process: trust the certificate there.
  https.globalAgent.options.ca = cert;
  const { port } = server.address() as { port: number };
  return {
    origin: `https://127.0.0.1:${port}`,
    received,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A browser's subscription: its own P-256 key pair and auth secret. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: {
      endpoint,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: auth.toString('base64url'),
      },
    },
  };
}

const decrypt = (r: Received, sub: ReturnType<typeof browserSubscription>) =>
  JSON.parse(
    ece
      .decrypt(r.body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth })
      .toString('utf8'),
  ) as { title: string; body: string; url: string };

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
    const rows = await server.database.db
      .select({ status: mailOutbox.status, lastError: mailOutbox.lastError })
      .from(mailOutbox)
      .where(eq(mailOutbox.template, 'push:serviceApproved'));
    expect(rows.map((r) => r.status).sort()).toEqual(['failed', 'sent']);
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

  it('refuses to store an endpoint that is not https or points inside, and accepts a push service', async () => {
    const owner = await partner(server);
    for (const endpoint of [
      'http://push.example.org/send/1',
      `${push.origin}/push/loopback`,
      'https://localhost/push',
      'https://push.localhost/push',
      'https://intranet/push',
      'https://[::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://10.1.2.3/push',
      'https://192.168.0.10/push',
      'https://169.254.169.254/latest/meta-data',
      'https://user:secret@push.example.org/push',
    ]) {
      const res = await owner.client.post(
        '/api/v1/auth/notifications',
        browserSubscription(endpoint).json,
      );
      expect(res.status, endpoint).toBe(400);
      expect(JSON.stringify(res.body), endpoint).toMatch(/"(bad_request|validation\.[a-z_]+)"/);
    }
    const ok = browserSubscription('https://updates.push.example.org/wpush/v2/abc');
    expect((await owner.client.post('/api/v1/auth/notifications', ok.json)).status).toBe(200);
    const stored = await server.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.accountId, owner.id));
    expect(stored.map((s) => s.endpoint)).toEqual([ok.json.endpoint]);
  });

  it('never sends to a stored endpoint that resolves inside, and drops it', async () => {
    const owner = await partner(server);
    // Stored before the rule, or a name that points inside now: written straight to the table.
    const inside = browserSubscription(`${push.origin}/push/inside`);
    await server.database.db.insert(pushSubscriptions).values({
      accountId: owner.id,
      endpoint: inside.json.endpoint,
      p256dh: inside.json.keys.p256dh,
      auth: inside.json.keys.auth,
    });
    const admin = await loggedIn(server, 'ADMIN');
    expect(
      (await admin.client.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status,
    ).toBe(200);
    const row = await waitUntil(async () => {
      const [r] = await server.database.db
        .select({ status: mailOutbox.status, lastError: mailOutbox.lastError })
        .from(mailOutbox)
        .where(eq(mailOutbox.template, 'push:serviceApproved'));
      return r?.status === 'failed' ? r : null;
    });
    expect(row.lastError).toContain('not on a public address');
    expect(push.received).toEqual([]);
    const left = await server.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.accountId, owner.id));
    expect(left).toEqual([]);
  });
});
