/**
 * The short form of the load test (issue 8; the full form is bench/load.bench.ts): a few seconds
 * of the mixed load (95 % public reads, 5 % writes: reports, used marks, partner edits with
 * session and anti-forgery token) at a modest fixed rate, on PGlite and (server-pg) PostgreSQL.
 * No timing is asserted (CI machines vary): zero errors, and every acknowledged write present.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  prepareWorld,
  runLoad,
  verifyAcknowledged,
  WRITE_EVERY,
  type LoadWorld,
} from '../../bench/loadScenario.js';
import { seedSynthetic } from '../seed/synthetic.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let world: LoadWorld;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true', MAIL_WORKER: 'false' });
  await seedSynthetic(server.database.db, { services: 300, seed: 8 });
  world = await prepareWorld(server.url, 3);
});
afterAll(() => server?.close());

describe('mixed load, short form', () => {
  it('answers every request with a 2xx, and every acknowledged write is stored', async () => {
    const run = await runLoad(world, { rate: 80, duration: 4, connections: 8 });
    const requests = run.result.requests.total;
    expect(requests).toBeGreaterThan(100);
    expect({ errors: run.errors, statuses: run.statuses }).toEqual({ errors: 0, statuses: {} });
    // About one request in WRITE_EVERY writes, and each kind was acknowledged at least once.
    expect(run.writes).toBeGreaterThanOrEqual(Math.floor(requests / WRITE_EVERY) - 1);
    const acked = run.acknowledged;
    expect(acked.reports.length).toBeGreaterThan(0);
    expect(acked.usedMarks.length).toBeGreaterThan(0);
    expect(acked.vacancies.length).toBeGreaterThan(0);
    expect(acked.edits.size).toBeGreaterThan(0);
    expect(await verifyAcknowledged(server.database.db, acked)).toEqual([]);
  }, 60_000);

  it('the check finds a write that is not there', async () => {
    // The verification itself can fail: a made-up report id and used mark are reported missing.
    const missing = await verifyAcknowledged(server.database.db, {
      reports: ['00000000-0000-4000-8000-000000000000'],
      usedMarks: [{ serviceId: world.approved[0]!, browserId: 'never-sent-0000000' }],
      vacancies: [],
      edits: new Map([[world.partners[0]!.serviceId, 'never acknowledged']]),
      unanswered: new Map(),
    });
    expect(missing).toHaveLength(3);
  });
});
