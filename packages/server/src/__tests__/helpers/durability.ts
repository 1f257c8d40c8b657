/**
 * The crash-durability workload, shared by the CI test (`__tests__/durability.test.ts`, short
 * form) and `pnpm bench` (`bench/crash.bench.ts`, full form): a stream of writes over HTTP from
 * several concurrent "browsers", the server SIGKILLed in the middle of it, restarted on the same
 * data, and at the end every write that was acknowledged with a 2xx answer is looked up in the
 * database.
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/index.js';
import { accounts, reports, services, usedMarks } from '../../db/schema.js';
import { startChildServer, type ChildServer } from './child.js';
import { TestClient, type TestResponse } from './client.js';
import { registration } from './fixtures.js';

export interface CrashWorkloadOptions {
  /** Environment of the child server: DATA_DIR, and DATABASE_URL for PostgreSQL. */
  env: Record<string, string>;
  /** Where the verification reads: the same database the server uses. */
  database: { url?: string; dataDir: string };
  /** Acknowledged writes to make in all. */
  writes: number;
  /** SIGKILLs, spread evenly over the writes. */
  kills: number;
  /** Concurrent writers. Defaults to 6. */
  lanes?: number;
  log?: (line: string) => void;
}

export interface CrashWorkloadResult {
  acknowledged: Record<'registrations' | 'creates' | 'edits' | 'reports' | 'usedMarks', number>;
  /** Requests that had no answer because the server died under them. */
  inFlightAtKill: number;
  /** Answers that were neither 2xx nor a dead connection (must be none). */
  unexpected: string[];
  /** Sessions from before a kill asked the restarted server for their services. */
  sessionsCheckedAfterRestart: number;
  /** Acknowledged writes that are not in the database (must be none). */
  missing: string[];
  kills: number;
  /** Wall time of each restart after a kill, in ms (start to /healthz). */
  restartMs: number[];
  elapsedMs: number;
}

interface ServiceLedger {
  /** The name of the last acknowledged create or edit. */
  acked: string;
  /** Names sent later whose answer never came: any of them may have committed. */
  unacked: string[];
}

const SEEDED = 4;

/** Runs the workload; see the module comment. */
export async function runCrashWorkload(opts: CrashWorkloadOptions): Promise<CrashWorkloadResult> {
  const log = opts.log ?? (() => {});
  const lanes = opts.lanes ?? 6;
  const started = Date.now();
  const tag = randomBytes(3).toString('hex');

  // Approved services to report and mark, written before the server starts.
  const seedDb = await openDatabase(opts.database);
  const seeded = (
    await seedDb.db
      .insert(services)
      .values(
        Array.from({ length: SEEDED }, (_, i) => ({
          name: `Crash seed ${tag} ${i}`,
          countryCode: 'PL',
          category: 'food' as const,
          status: 'approved' as const,
        })),
      )
      .returning({ id: services.id })
  ).map((r) => r.id);
  await seedDb.close();

  const registered = new Map<string, string>(); // e-mail → account id
  const serviceLedger = new Map<string, ServiceLedger>();
  const reportLedger = new Map<string, string>(); // id → description
  const markLedger: { serviceId: string; browserId: string }[] = [];
  /** Logged-in partners of the phase a kill ended, with their acknowledged services. */
  let survivors: { cookies: Map<string, string>; owned: string[] }[] = [];
  let sessionsChecked = 0;
  const acknowledged = { registrations: 0, creates: 0, edits: 0, reports: 0, usedMarks: 0 };
  const unexpected: string[] = [];
  const missing: string[] = [];
  const restartMs: number[] = [];
  let inFlightAtKill = 0;
  let seq = 0;
  const ackedTotal = () => Object.values(acknowledged).reduce((a, b) => a + b, 0);

  const env = {
    TRUST_PROXY: 'true',
    RATE_SIGNUP_PER_IP: '1000000',
    RATE_LOGIN_PER_IP: '1000000',
    MAIL_POLL_MS: '200',
    ...opts.env,
  };
  /** A different client address per request, as behind a proxy (per-IP limits stay out of it). */
  const ip = () => {
    const n = ++seq;
    return { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
  };

  const phases = opts.kills + 1;
  const perPhase = Math.ceil(opts.writes / phases);
  for (let phase = 0; phase < phases; phase++) {
    const t0 = Date.now();
    const server: ChildServer = await startChildServer(env, 120_000);
    if (phase > 0) {
      restartMs.push(Date.now() - t0);
      // The restarted server answers for what it acknowledged before the kill: the sessions
      // still log the partners in, and their lists hold every acknowledged service.
      for (const survivor of survivors.slice(0, 10)) {
        const c = new TestClient(server.url);
        for (const [k, v] of survivor.cookies) c.cookies.set(k, v);
        sessionsChecked++;
        const res = await c.get('/api/v1/my/services');
        if (res.status !== 200) {
          missing.push(`after restart ${phase}: a session answers ${res.status}`);
          continue;
        }
        const listed = new Set((res.body as { id: string }[]).map((x) => x.id));
        for (const id of survivor.owned) {
          if (!listed.has(id)) missing.push(`after restart ${phase}: service ${id} not listed`);
        }
      }
      survivors = [];
    }
    const killAt = ackedTotal() + perPhase;
    const last = phase === phases - 1;
    let dead = false;
    let stop = false;

    const lane = async (laneNo: number) => {
      let client: TestClient | null = null;
      let owned: string[] = [];
      let inFlight = 0;
      /** Sends one request; null when the server died under it. */
      const send = async (fn: () => Promise<TestResponse<any>>) => {
        inFlight++;
        try {
          return await fn();
        } catch (error) {
          if (dead) {
            inFlightAtKill++;
            return null;
          }
          unexpected.push(`lane ${laneNo}: ${(error as Error).message}`);
          return null;
        } finally {
          inFlight--;
        }
      };
      const fail = (what: string, res: { status: number; body: unknown }) => {
        if (!dead) unexpected.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      };

      const register = async () => {
        const c = new TestClient(server.url);
        const init = await send(() => c.init());
        if (!init) return;
        const body = registration({ email: `crash-${tag}-${++seq}@example.org` });
        body.service.name = `Crash ${tag} reg ${seq}`;
        const res = await send(() => c.post('/api/v1/auth/register', body));
        if (!res) return;
        if (res.status !== 201) return fail('register', res);
        registered.set(body.account.email, res.body.account.id);
        serviceLedger.set(res.body.service.id, { acked: body.service.name, unacked: [] });
        acknowledged.registrations++;
        client = c;
        owned = [res.body.service.id];
      };

      while (!stop && !dead) {
        if (!client || Math.random() < 0.08) {
          await register();
          continue;
        }
        const c: TestClient = client;
        const roll = Math.random();
        if (roll < 0.25) {
          const body = registration().service;
          body.name = `Crash ${tag} new ${++seq}`;
          const res = await send(() => c.post('/api/v1/my/services', body));
          if (!res) continue;
          if (res.status !== 201) {
            fail('create', res);
            continue;
          }
          serviceLedger.set(res.body.id, { acked: body.name, unacked: [] });
          owned.push(res.body.id);
          acknowledged.creates++;
        } else if (roll < 0.5) {
          const id = owned[Math.floor(Math.random() * owned.length)]!;
          const body = registration().service;
          body.name = `Crash ${tag} edit ${++seq}`;
          const ledger = serviceLedger.get(id)!;
          const res = await send(() => c.put(`/api/v1/my/services/${id}`, body));
          if (!res) {
            ledger.unacked.push(body.name);
            continue;
          }
          if (res.status !== 200) {
            fail('edit', res);
            continue;
          }
          ledger.acked = body.name;
          ledger.unacked = [];
          acknowledged.edits++;
        } else if (roll < 0.75) {
          const serviceId = seeded[Math.floor(Math.random() * seeded.length)]!;
          const description = `Crash ${tag} report ${++seq}`;
          const res = await send(() =>
            new TestClient(server.url).post(
              '/api/v1/reports',
              { serviceId, reason: 'other', description },
              { headers: ip() },
            ),
          );
          if (!res) continue;
          if (res.status !== 201) {
            fail('report', res);
            continue;
          }
          reportLedger.set(res.body.id, description);
          acknowledged.reports++;
        } else {
          const serviceId = seeded[Math.floor(Math.random() * seeded.length)]!;
          const browserId = `crash${tag}${(++seq).toString().padStart(12, '0')}`;
          const res = await send(() =>
            new TestClient(server.url).post(
              `/api/v1/services/${serviceId}/used`,
              { browserId },
              { headers: ip() },
            ),
          );
          if (!res) continue;
          if (res.status !== 200 || res.body.counted !== true) {
            fail('used', res);
            continue;
          }
          markLedger.push({ serviceId, browserId });
          acknowledged.usedMarks++;
        }
      }
      if (dead && client) survivors.push({ cookies: (client as TestClient).cookies, owned });
      return inFlight;
    };

    let finished = false;
    const running = Promise.all(Array.from({ length: lanes }, (_, i) => lane(i))).finally(
      () => (finished = true),
    );
    // Watch the count; at the mark, kill (or, in the last phase, stop the writers).
    while (ackedTotal() < killAt && unexpected.length === 0 && !finished) {
      await new Promise((r) => setTimeout(r, 5));
    }
    if (last || unexpected.length) {
      stop = true;
      await running;
      await server.kill('SIGTERM');
    } else {
      dead = true;
      await server.kill('SIGKILL');
      await running;
      log(`phase ${phase + 1}: SIGKILL after ${ackedTotal()} acknowledged writes`);
    }
    if (unexpected.length) break;
  }

  // Every acknowledged write, looked up in the database (the server is stopped).
  const database = await openDatabase(opts.database);
  try {
    const { db } = database;
    const emails = [...registered.keys()];
    const found = new Map<string, string>();
    for (let i = 0; i < emails.length; i += 500) {
      const rows = await db
        .select({ id: accounts.id, email: accounts.email })
        .from(accounts)
        .where(inArray(accounts.email, emails.slice(i, i + 500)));
      for (const r of rows) found.set(r.email, r.id);
    }
    for (const [email, id] of registered) {
      if (found.get(email) !== id) missing.push(`account ${email}`);
    }

    const serviceIds = [...serviceLedger.keys()];
    const names = new Map<string, string>();
    for (let i = 0; i < serviceIds.length; i += 500) {
      const rows = await db
        .select({ id: services.id, name: services.name })
        .from(services)
        .where(inArray(services.id, serviceIds.slice(i, i + 500)));
      for (const r of rows) names.set(r.id, r.name);
    }
    for (const id of serviceIds) {
      const ledger = serviceLedger.get(id)!;
      const name = names.get(id);
      if (name === undefined) missing.push(`service ${id}`);
      else if (name !== ledger.acked && !ledger.unacked.includes(name)) {
        missing.push(`service ${id}: edit "${ledger.acked}" lost (found "${name}")`);
      }
    }

    const reportIds = [...reportLedger.keys()];
    const descriptions = new Map<string, string>();
    for (let i = 0; i < reportIds.length; i += 500) {
      const rows = await db
        .select({ id: reports.id, description: reports.description })
        .from(reports)
        .where(inArray(reports.id, reportIds.slice(i, i + 500)));
      for (const r of rows) descriptions.set(r.id, r.description);
    }
    for (const [id, description] of reportLedger) {
      if (descriptions.get(id) !== description) missing.push(`report ${id}`);
    }

    const marks = new Set(
      (
        await db
          .select({ serviceId: usedMarks.serviceId, browserId: usedMarks.browserId })
          .from(usedMarks)
          .where(inArray(usedMarks.serviceId, seeded))
      ).map((m) => `${m.serviceId}/${m.browserId}`),
    );
    for (const m of markLedger) {
      if (!marks.has(`${m.serviceId}/${m.browserId}`)) missing.push(`used mark ${m.browserId}`);
    }
    // The counter is written in the mark's transaction: it must agree with the marks.
    for (const id of seeded) {
      const [row] = await db
        .select({
          usedCount: services.usedCount,
          marks: sql<number>`(SELECT count(*)::int FROM used_marks m WHERE m.service_id = ${id})`,
        })
        .from(services)
        .where(eq(services.id, id));
      if (row!.usedCount !== Number(row!.marks)) {
        missing.push(`service ${id}: used count ${row!.usedCount} but ${row!.marks} marks`);
      }
    }
  } finally {
    await database.close();
  }
  return {
    acknowledged,
    inFlightAtKill,
    unexpected,
    missing,
    sessionsCheckedAfterRestart: sessionsChecked,
    kills: restartMs.length,
    restartMs,
    elapsedMs: Date.now() - started,
  };
}
