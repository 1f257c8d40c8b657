/**
 * The short form of the load test (the full form is bench/load.bench.ts), with the same open-loop
 * generator (bench/openLoop.ts) and mix (bench/loadScenario.ts):
 *
 * - the generator keeps its schedule whatever the server does, and counts each latency from the
 *   request's scheduled time (against a slow HTTP server of its own on loopback);
 * - a few seconds of the mix with 5 % writes at a modest fixed rate, on PGlite and (server-pg)
 *   PostgreSQL: zero errors, every request sent on schedule, every acknowledged write stored. No
 *   timing of the app is asserted (CI machines vary).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emptyAcknowledged,
  prepareWorld,
  runLoad,
  verifyAcknowledged,
  type LoadWorld,
} from '../../bench/loadScenario.js';
import { openLoop, schedule, type PlannedRequest } from '../../bench/openLoop.js';
import { seedSynthetic } from '../seed/synthetic.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** An HTTP server that answers every request after `delayMs`, one at a time per socket. */
async function slowServer(delayMs: number) {
  const arrivals: number[] = [];
  const server = http.createServer((_req, res) => {
    arrivals.push(performance.now());
    setTimeout(() => res.end('ok'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const gets = (rate: number, duration: number): PlannedRequest[] =>
  schedule({ rate, duration }).map((at) => ({
    at,
    kind: 'get',
    method: 'GET',
    path: '/',
    headers: {},
  }));

describe('the open-loop generator', () => {
  it('sends on schedule while earlier answers are still outstanding', async () => {
    const slow = await slowServer(300);
    try {
      // 50 requests/s for 2 s against answers of 300 ms: about 15 outstanding at any time.
      const run = await openLoop(slow.base, gets(50, 2));
      expect(run.answers).toHaveLength(100);
      expect(run.errors).toBe(0);
      expect(run.atCap).toBe(0);
      expect(run.maxInFlight).toBeGreaterThanOrEqual(10);
      // The server saw them arrive over the two seconds, not bunched behind the answers.
      expect(slow.arrivals.at(-1)! - slow.arrivals[0]!).toBeGreaterThan(1800);
      expect(run.latency.p50).toBeGreaterThanOrEqual(300);
    } finally {
      await slow.close();
    }
  });

  it('counts the latency from the scheduled time when the sockets are all busy', async () => {
    // One socket and 100 ms answers can serve 10 requests/s; 20/s are due. The n-th request is
    // answered about (n + 1) × 100 ms after the start but was due at n × 50 ms: the wait grows
    // to about 2 s. A closed loop (or latency timed from the send) sees 100 ms for each.
    const slow = await slowServer(100);
    try {
      const run = await openLoop(slow.base, gets(20, 2), { maxSockets: 1 });
      expect(run.answers).toHaveLength(40);
      expect(run.errors).toBe(0);
      expect(run.latency.p99).toBeGreaterThan(1500);
      expect(run.atCap).toBeGreaterThan(30);
      expect(run.onSchedule).toBe(false);
    } finally {
      await slow.close();
    }
  });
});

describe('mixed load, short form', () => {
  let server: TestServer;
  let world: LoadWorld;
  // The site's pages are among the reads when the site is built (CI builds before testing).
  const pages = fs.existsSync(path.resolve(__dirname, '../../../site/dist/pages/routes.json'));

  beforeAll(async () => {
    server = await startTestServer({
      NODE_ENV: 'production',
      TRUST_PROXY: 'true',
      MAIL_WORKER: 'false',
      LOG_LEVEL: 'silent',
    });
    await seedSynthetic(server.database.db, { services: 300, seed: 8 });
    world = await prepareWorld(server.url, { partners: 3, pages });
  }, 60_000);
  afterAll(() => server?.close());

  it('answers every request of the mix with a 2xx, on schedule, and stores every acknowledged write', async () => {
    const run = await runLoad(world, { rate: 100, duration: 5, writes: true, process: 'poisson' });
    expect(run.answers.length).toBeGreaterThan(400);
    expect({ errors: run.errors, statuses: run.statuses }).toEqual({ errors: 0, statuses: {} });
    // Sent on schedule: no request waited for a socket. How late the generator sent any (a busy
    // machine delays some) is a figure of the bench, which holds it to 10 ms.
    expect(run.atCap).toBe(0);
    // Every kind of read and of write was sent, and each kind of write acknowledged.
    expect(Object.keys(run.byKind).sort()).toEqual(
      [
        'map',
        'search',
        'search, never seen',
        'profile',
        'vacancies',
        'used',
        'report',
        'vacancy',
        ...(pages ? ['home', 'profile page'] : []),
      ].sort(),
    );
    const acked = run.acknowledged;
    expect(acked.reports.length).toBeGreaterThan(0);
    expect(acked.usedMarks.length).toBeGreaterThan(0);
    expect(acked.vacancies.length).toBeGreaterThan(0);
    // Each used mark has a browser id of its own, so every one counts.
    expect(acked.reports.length + acked.usedMarks.length + acked.vacancies.length).toBe(run.writes);
    expect(await verifyAcknowledged(server.database.db, acked)).toEqual([]);
  }, 60_000);

  it('the check finds a write that is not there', async () => {
    // The verification itself can fail: a made-up report, vacancy and used mark are missing.
    const missing = await verifyAcknowledged(server.database.db, {
      ...emptyAcknowledged(),
      reports: ['00000000-0000-4000-8000-000000000000'],
      vacancies: ['00000000-0000-4000-8000-000000000001'],
      usedMarks: [{ serviceId: world.approved[0]!, browserId: 'never-sent-0000000' }],
    });
    expect(missing).toHaveLength(3);
  });
});
