import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadEnv } from '../env.js';
import { REPO_ROOT } from '../paths.js';
import { startChildServer } from './helpers/child.js';
import { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * TRUST_PROXY names the reverse proxies whose X-Forwarded-For is believed. A client that
 * reaches the server directly and forges the header is counted by its real address (here: the
 * per-IP limit of password-reset requests, RATE_SIGNUP_PER_IP, cheaper than logins), whatever it
 * claims.
 */
const LIMIT = 3;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Password-reset requests (for unknown addresses), each claiming the client address given. */
async function resets(baseUrl: string, forwardedFor: string[]) {
  const client = new TestClient(baseUrl);
  await client.init();
  const statuses: number[] = [];
  for (const [i, ip] of forwardedFor.entries()) {
    const res = await client.post(
      '/api/v1/auth/reset-password',
      { email: `nobody${i}@example.org` },
      { headers: { 'x-forwarded-for': ip } },
    );
    statuses.push(res.status);
  }
  return statuses;
}

describe('TRUST_PROXY over HTTP', () => {
  /**
   * host: where the server listens; via: the address the test connects to; honoured: whether
   * the forged X-Forwarded-For is believed (each claimed address has its own limit) or not
   * (every attempt counts against the real address).
   */
  const cases: { trust: string; host: string; via: string; honoured: boolean }[] = [
    { trust: '127.0.0.1', host: '127.0.0.1', via: '127.0.0.1', honoured: true },
    { trust: '10.0.0.1', host: '127.0.0.1', via: '127.0.0.1', honoured: false },
    { trust: '10.0.0.0/8,192.168.0.0/16', host: '127.0.0.1', via: '127.0.0.1', honoured: false },
    { trust: '127.0.0.0/8', host: '127.0.0.1', via: '127.0.0.1', honoured: true },
    { trust: 'false', host: '127.0.0.1', via: '127.0.0.1', honoured: false },
    { trust: '::1', host: '::1', via: '[::1]', honoured: true },
    { trust: '127.0.0.1', host: '::1', via: '[::1]', honoured: false },
    // Dual stack: an IPv4 client is ::ffff:127.0.0.1 to the server; both spellings match it.
    { trust: '127.0.0.1', host: '::', via: '127.0.0.1', honoured: true },
    { trust: '::ffff:127.0.0.1', host: '::', via: '127.0.0.1', honoured: true },
    { trust: '::ffff:127.0.0.1', host: '127.0.0.1', via: '127.0.0.1', honoured: true },
    { trust: '::1,10.0.0.1', host: '::', via: '127.0.0.1', honoured: false },
  ];

  it.each(cases)(
    'TRUST_PROXY=$trust, listening on $host, from $via: forwarded address honoured: $honoured',
    async ({ trust, host, via, honoured }) => {
      server = await startTestServer({
        TRUST_PROXY: trust,
        HOST: host,
        RATE_SIGNUP_PER_IP: String(LIMIT),
        MAIL_WORKER: 'false',
      });
      const port = server.app.server.address() as { port: number };
      const base = `http://${via}:${port.port}`;
      // LIMIT attempts claiming one address use up its budget; the next claims another.
      const claimed = [...Array(LIMIT).fill('203.0.113.7'), '198.51.100.9', '203.0.113.7'];
      const statuses = await resets(base, claimed);
      expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
      // Believed: 198.51.100.9 has its own budget. Not believed: the real address is spent.
      expect(statuses[LIMIT]).toBe(honoured ? 200 : 429);
      expect(statuses[LIMIT + 1]).toBe(429);
    },
  );

  it('refuses an invalid TRUST_PROXY at start with a clear message', async () => {
    for (const value of ['proxy.example.org', '2', '10.0.0.1/33', '::1/0', '10.0.0.1,,::1']) {
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: .*addresses/);
    }
    expect(loadEnv({ TRUST_PROXY: ' 10.0.0.0/8 , ::1 ' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    // The server itself: exits 1 with the message, before it listens.
    const failed = await startChildServer({ TRUST_PROXY: '10.0.0.300' }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/^server exited \(1\)/);
    expect(failed).toContain('TRUST_PROXY: "10.0.0.300" is not an IP address or CIDR range');
  }, 60_000);
});

describe('deployment recipes', () => {
  const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

  it('compose publishes only the proxy, and the app trusts the proxy address alone', () => {
    const compose = parse(read('deploy/compose.yaml')) as {
      services: Record<
        string,
        {
          ports?: unknown[];
          environment?: Record<string, string>;
          networks?: Record<string, { ipv4_address?: string } | null>;
        }
      >;
    };
    const { app, proxy } = compose.services;
    expect(app, 'app service').toBeDefined();
    expect(app!.ports ?? [], 'the app publishes no port').toEqual([]);
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'proxy') expect(service.ports ?? [], `${name} publishes no port`).toEqual([]);
    }
    expect(proxy?.ports?.length, 'the proxy publishes a port').toBeGreaterThan(0);
    const trust = loadEnv({ TRUST_PROXY: app!.environment!.TRUST_PROXY }).TRUST_PROXY;
    expect(Array.isArray(trust), `TRUST_PROXY=${app!.environment!.TRUST_PROXY}`).toBe(true);
    // Exactly the proxy's fixed address on the network it shares with the app.
    const proxyAddresses = Object.values(proxy!.networks ?? {}).map((n) => n?.ipv4_address);
    expect(trust).toHaveLength(1);
    expect(proxyAddresses).toContain((trust as string[])[0]);
  });

  it('no recipe trusts every peer', () => {
    expect(read('Dockerfile')).not.toMatch(/TRUST_PROXY=(true|1)\b/);
    expect(read('deploy/poruch.service')).toMatch(/^Environment=TRUST_PROXY=127\.0\.0\.1,::1$/m);
    expect(read('deploy/poruch.env.example')).not.toMatch(/TRUST_PROXY=(true|1)\b/);
  });
});
