import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

// web-push encrypts with http_ece; the test decrypts with the same library, as a browser would.
const requireFromWebPush = createRequire(createRequire(import.meta.url).resolve('web-push'));
const ece = requireFromWebPush('http_ece') as {
  decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
};

export interface Received {
  path: string;
  /** The name the client sent for TLS (SNI). */
  servername: string | false | null;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The name the push service's certificate holds besides 127.0.0.1. */
export const PUSH_HOST = 'push.example.org';

/**
 * A push service on loopback (HTTPS with a self-signed certificate for 127.0.0.1 and PUSH_HOST,
 * as web-push only speaks https). Paths starting with /gone answer 410, /moved a 307 to the
 * `to` query parameter, the rest 201.
 */
export async function startPushService() {
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
      `subjectAltName=IP:127.0.0.1,DNS:${PUSH_HOST}`,
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
        received.push({
          path: req.url!,
          servername: (req.socket as import('node:tls').TLSSocket).servername,
          headers: req.headers,
          body: Buffer.concat(chunks),
        });
        const url = new URL(req.url!, 'https://push');
        if (url.pathname.startsWith('/moved')) {
          res.writeHead(307, { location: url.searchParams.get('to')! });
        } else res.statusCode = url.pathname.startsWith('/gone') ? 410 : 201;
        res.end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The server under test runs in this process: trust the certificate there.
  https.globalAgent.options.ca = cert;
  const { port } = server.address() as { port: number };
  return {
    port,
    origin: `https://127.0.0.1:${port}`,
    received,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A browser's subscription: its own P-256 key pair and auth secret. */
export function browserSubscription(endpoint: string) {
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

export const decrypt = (r: Received, sub: ReturnType<typeof browserSubscription>) =>
  JSON.parse(
    ece
      .decrypt(r.body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth })
      .toString('utf8'),
  ) as { title: string; body: string; url: string };
