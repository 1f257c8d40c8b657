/**
 * The mixed load of issue 8 (docs/performance.md#load), shared by the full benchmark
 * (bench/load.bench.ts) and its short CI form (src/__tests__/load-short.test.ts):
 *
 * - 95 % public reads in the proportions of the capacity model: search, profile, map, vacancies;
 * - 5 % writes: anonymous reports, "I have used it" marks, and partner edits (a service edit or a
 *   new vacancy) by logged-in partners with their session cookie and anti-forgery token.
 *
 * Every request comes from its own forwarded address (the server runs with TRUST_PROXY, as
 * behind nginx): the per-IP limits on reports (10 an hour) and used marks (30 an hour) are for
 * one visitor, and a load of many visitors must not hit them. Every acknowledged (2xx) write is
 * recorded, so {@link verifyAcknowledged} can prove afterwards that it is in the database.
 */
import autocannon from 'autocannon';
import { and, eq, inArray } from 'drizzle-orm';
import type { Registration } from '@poruch/core';
import type { Database } from '../src/db/index.js';
import { reports, services, usedMarks, vacancies } from '../src/db/schema.js';
import { TestClient } from '../src/__tests__/helpers/client.js';
import { registration } from '../src/__tests__/helpers/fixtures.js';

/** Share of each read kind among the reads, in percent (docs/operations.md#capacity-model). */
const READS = { map: 35, search: 30, profile: 20, vacancies: 15 };

/** One write in this many requests: 5 %. */
export const WRITE_EVERY = 20;

export interface LoadPartner {
  serviceId: string;
  service: Registration['service'];
  cookie: string;
  xsrf: string;
}

export interface LoadWorld {
  base: string;
  /** Public GET paths in the READS proportions, shuffled. */
  reads: string[];
  /** Approved services: targets of reports and used marks. */
  approved: string[];
  partners: LoadPartner[];
}

/** What the server acknowledged with a 2xx. */
export interface Acknowledged {
  reports: string[];
  /** `serviceId browserId` of marks answered `counted: true`. */
  usedMarks: { serviceId: string; browserId: string }[];
  vacancies: string[];
  /**
   * Per partner service, the descriptionOther of its last acknowledged edit. A service has one
   * edit in flight at most, so acknowledgement order is commit order.
   */
  edits: Map<string, string>;
  /**
   * Per partner service, edits sent but never answered (in flight when a run ended): the server
   * may still have committed them, after the last acknowledged one.
   */
  unanswered: Map<string, Set<string>>;
}

export const emptyAcknowledged = (): Acknowledged => ({
  reports: [],
  usedMarks: [],
  vacancies: [],
  edits: new Map(),
  unanswered: new Map(),
});

/** A deterministic generator, so two runs send the same mix. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** The first 100 approved services of the catalogue, through the public API. */
export async function publicServices(base: string) {
  const page = (await (await fetch(`${base}/api/v1/services?pageSize=100`)).json()) as {
    items: {
      id: string;
      name: string;
      countryCode: string;
      lat: number | null;
      lng: number | null;
    }[];
  };
  return page.items;
}

/**
 * Reads the catalogue through the API, builds the read mix, and registers `partners` partners
 * (HTTP, as a browser: session cookie and XSRF token). The server needs RATE_SIGNUP_PER_IP of at least `partners`.
 */
export async function prepareWorld(base: string, partners = 5): Promise<LoadWorld> {
  const items = await publicServices(base);
  if (!items.length) throw new Error('load: no approved services to read');
  const located = items.filter((i) => i.lat !== null && i.lng !== null);
  const words = [...new Set(items.flatMap((s) => s.name.split(/\s+/)).filter((w) => w.length > 3))];
  const rnd = random(7);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const make: Record<keyof typeof READS, () => string> = {
    map: () => {
      const s = pick(located.length ? located : items);
      const zoom = pick([3, 5, 8, 11, 14]);
      const w = 360 / 2 ** zoom;
      const lat = s.lat ?? 50;
      const lng = s.lng ?? 20;
      return `/api/v1/map?bbox=${lng - w},${lat - w / 2},${lng + w},${lat + w / 2}&zoom=${zoom}`;
    },
    search: () =>
      pick([
        () => `/api/v1/services?q=${encodeURIComponent(pick(words.length ? words : ['a']))}`,
        () => `/api/v1/services?country=${pick(items).countryCode}`,
        () => `/api/v1/services?page=2&country=${pick(items).countryCode}`,
      ])(),
    profile: () => `/api/v1/services/${pick(items).id}`,
    vacancies: () => `/api/v1/vacancies?country=${pick(items).countryCode}`,
  };
  const reads: string[] = [];
  for (const [kind, share] of Object.entries(READS) as [keyof typeof READS, number][]) {
    for (let i = 0; i < share * 10; i++) reads.push(make[kind]());
  }
  for (let i = reads.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [reads[i], reads[j]] = [reads[j]!, reads[i]!];
  }

  const list: LoadPartner[] = [];
  for (let i = 0; i < partners; i++) {
    const client = new TestClient(base);
    await client.init();
    const body = registration({ email: `load-${i}-${Date.now()}@example.org` });
    const res = await client.post('/api/v1/auth/register', body);
    if (res.status !== 201) throw new Error(`load: registration ${res.status}`);
    // The anti-forgery token is per session: read it again after the login of registration.
    await client.init();
    list.push({
      serviceId: res.body.service.id,
      service: body.service,
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      xsrf: decodeURIComponent(client.cookies.get('XSRF-TOKEN') ?? ''),
    });
  }
  return { base, reads, approved: items.map((i) => i.id), partners: list };
}

type Op =
  | { kind: 'read'; what: string }
  | { kind: 'report' }
  | { kind: 'used'; serviceId: string; browserId: string }
  | { kind: 'edit'; serviceId: string; value: string }
  | { kind: 'vacancy' };

/** autocannon's per-request context: it is reset between requests, but onResponse sees it. */
interface RequestContext {
  op?: Op;
  /** When the request was built (just before it is written to the socket). */
  sentAt?: number;
}

/** Counts shared by every run of one process: forwarded addresses and ids never repeat. */
let sequence = 0;
const runId = Date.now().toString(36);

/** A fresh IPv4 address per request (10.0.0.0/8 has 16.7 million). */
const forwardedFor = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export interface LoadOptions {
  /** Requests per second from all connections (autocannon's overallRate). */
  rate: number;
  /** Seconds. */
  duration: number;
  connections?: number;
}

export interface LoadRun {
  rate: number;
  result: autocannon.Result;
  acknowledged: Acknowledged;
  /** Requests that failed on the wire or answered other than 2xx, and timeouts. */
  errors: number;
  /** Non-2xx statuses seen, with counts, for the failure message. */
  statuses: Record<string, number>;
  /**
   * Latency by kind of request (map, search, profile, vacancies, report, used, edit, vacancy),
   * measured from the request's construction to its answer: p50 and p99 in ms, and the count.
   */
  byKind: Record<string, { count: number; p50: number; p99: number }>;
  writes: number;
  /** Partner service edits answered 2xx (edits keep only the last per service). */
  editsAcknowledged: number;
}

/** Runs the mix at a fixed overall rate and records every acknowledged write. */
export function runLoad(world: LoadWorld, options: LoadOptions): Promise<LoadRun> {
  /** Partner services with an edit in flight: one edit at a time per service. */
  const busy = new Set<string>();
  const acknowledged = emptyAcknowledged();
  const sentEdits = new Map<string, Set<string>>();
  const statuses: Record<string, number> = {};
  const latencies = new Map<string, number[]>();
  let writes = 0;
  let editsAcknowledged = 0;
  let readIndex = 0;
  const rnd = random(11 + sequence);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const json = (headers: Record<string, string>) => ({
    ...headers,
    'content-type': 'application/json',
  });

  const request: autocannon.Request = {
    method: 'GET',
    path: '/healthz',
    setupRequest: (req: autocannon.Request, context: object): autocannon.Request => {
      const n = ++sequence;
      const ctx = context as RequestContext;
      const headers: Record<string, string> = { 'x-forwarded-for': forwardedFor(n) };
      if (n % WRITE_EVERY !== 0) {
        const path = world.reads[readIndex++ % world.reads.length]!;
        ctx.sentAt = performance.now();
        ctx.op = {
          kind: 'read',
          what:
            /^\/api\/v1\/(map|vacancies|services\?|services\/)/
              .exec(path)?.[1]
              ?.replace('services?', 'search')
              .replace('services/', 'profile') ?? 'other',
        };
        return { ...req, method: 'GET', path, headers, body: undefined };
      }
      writes++;
      ctx.sentAt = performance.now();
      const partner = pick(world.partners);
      const newVacancy = (p: LoadPartner): autocannon.Request => {
        ctx.op = { kind: 'vacancy' };
        return {
          ...req,
          method: 'POST',
          path: `/api/v1/my/services/${p.serviceId}/vacancies`,
          headers: json({ ...headers, cookie: p.cookie, 'x-xsrf-token': p.xsrf }),
          body: JSON.stringify({ name: `Load vacancy ${runId} ${n}`, salary: '20 zł/h' }),
        };
      };
      switch ((n / WRITE_EVERY) % 4) {
        case 0: {
          ctx.op = { kind: 'report' };
          const body = {
            serviceId: pick(world.approved),
            reason: 'other',
            description: `load ${runId} ${n}`,
          };
          return {
            ...req,
            method: 'POST',
            path: '/api/v1/reports',
            headers: json(headers),
            body: JSON.stringify(body),
          };
        }
        case 1: {
          const op = {
            kind: 'used' as const,
            serviceId: pick(world.approved),
            browserId: `load-${runId}-${String(n).padStart(6, '0')}`,
          };
          ctx.op = op;
          return {
            ...req,
            method: 'POST',
            path: `/api/v1/services/${op.serviceId}/used`,
            headers: json(headers),
            body: JSON.stringify({ browserId: op.browserId }),
          };
        }
        case 2: {
          // One edit in flight per service, so the order of acknowledgements is the order of
          // commits; when every partner has one, a new vacancy is written instead.
          const free = world.partners.filter((p) => !busy.has(p.serviceId));
          if (!free.length) return newVacancy(pick(world.partners));
          const editor = pick(free);
          busy.add(editor.serviceId);
          const value = `Edited under load ${runId} ${n}`;
          ctx.op = { kind: 'edit', serviceId: editor.serviceId, value };
          const sent = sentEdits.get(editor.serviceId) ?? new Set<string>();
          sentEdits.set(editor.serviceId, sent.add(value));
          return {
            ...req,
            method: 'PUT',
            path: `/api/v1/my/services/${editor.serviceId}`,
            headers: json({ ...headers, cookie: editor.cookie, 'x-xsrf-token': editor.xsrf }),
            body: JSON.stringify({ ...editor.service, descriptionOther: value }),
          };
        }
        default:
          return newVacancy(partner);
      }
    },
    onResponse: (status, body, context) => {
      const { op, sentAt } = context as RequestContext;
      if (op && sentAt !== undefined) {
        const kind = op.kind === 'read' ? op.what : op.kind;
        const list = latencies.get(kind) ?? [];
        latencies.set(kind, list);
        list.push(performance.now() - sentAt);
      }
      if (op?.kind === 'edit') {
        sentEdits.get(op.serviceId)?.delete(op.value);
        busy.delete(op.serviceId);
      }
      if (status < 200 || status >= 300) {
        const key = `${status} ${op?.kind ?? '?'}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        return;
      }
      if (!op || op.kind === 'read') return;
      const parsed = JSON.parse(body) as { id?: string; counted?: boolean };
      if (op.kind === 'report') acknowledged.reports.push(parsed.id!);
      else if (op.kind === 'vacancy') acknowledged.vacancies.push(parsed.id!);
      else if (op.kind === 'used') {
        if (parsed.counted)
          acknowledged.usedMarks.push({ serviceId: op.serviceId, browserId: op.browserId });
      } else {
        acknowledged.edits.set(op.serviceId, op.value);
        editsAcknowledged++;
      }
    },
  };

  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: world.base,
        connections: options.connections ?? 50,
        duration: options.duration,
        overallRate: options.rate,
        requests: [request],
        timeout: 10,
      },
      (err, result) => {
        if (err) return reject(err);
        const errors = result.errors + result.non2xx + result.timeouts;
        for (const [id, values] of sentEdits)
          if (values.size) acknowledged.unanswered.set(id, values);
        resolve({
          rate: options.rate,
          result,
          acknowledged,
          errors,
          statuses,
          writes,
          editsAcknowledged,
          byKind: Object.fromEntries(
            [...latencies].map(([kind, list]) => {
              const sorted = list.sort((a, b) => a - b);
              const at = (p: number) =>
                Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!);
              return [kind, { count: sorted.length, p50: at(0.5), p99: at(0.99) }];
            }),
          ),
        });
      },
    );
  });
}

/**
 * Every acknowledged write, looked up in the database: returns what is missing (empty when all
 * are there). An edited service must hold its last acknowledged edit, or an edit that was sent
 * after it and never answered (the server may commit a request whose client went away).
 */
export async function verifyAcknowledged(
  db: Database['db'],
  acknowledged: Acknowledged,
): Promise<string[]> {
  const missing: string[] = [];
  const chunks = <T>(a: T[]) =>
    Array.from({ length: Math.ceil(a.length / 500) }, (_, i) => a.slice(i * 500, i * 500 + 500));
  for (const ids of chunks(acknowledged.reports)) {
    const found = new Set(
      (await db.select({ id: reports.id }).from(reports).where(inArray(reports.id, ids))).map(
        (r) => r.id,
      ),
    );
    for (const id of ids) if (!found.has(id)) missing.push(`report ${id}`);
  }
  for (const ids of chunks(acknowledged.vacancies)) {
    const found = new Set(
      (await db.select({ id: vacancies.id }).from(vacancies).where(inArray(vacancies.id, ids))).map(
        (r) => r.id,
      ),
    );
    for (const id of ids) if (!found.has(id)) missing.push(`vacancy ${id}`);
  }
  for (const marks of chunks(acknowledged.usedMarks)) {
    const rows = await db
      .select({ serviceId: usedMarks.serviceId, browserId: usedMarks.browserId })
      .from(usedMarks)
      .where(
        inArray(
          usedMarks.browserId,
          marks.map((m) => m.browserId),
        ),
      );
    const found = new Set(rows.map((r) => `${r.serviceId} ${r.browserId}`));
    for (const m of marks) {
      if (!found.has(`${m.serviceId} ${m.browserId}`)) missing.push(`used mark ${m.browserId}`);
    }
  }
  for (const [serviceId, value] of acknowledged.edits) {
    const values = new Set([value, ...(acknowledged.unanswered.get(serviceId) ?? [])]);
    const [row] = await db
      .select({ descriptionOther: services.descriptionOther })
      .from(services)
      .where(and(eq(services.id, serviceId)));
    if (!row || !values.has(row.descriptionOther)) {
      missing.push(`edit of ${serviceId} (holds ${JSON.stringify(row?.descriptionOther)})`);
    }
  }
  return missing;
}

/** Adds a later run's acknowledged writes to a total. */
export function mergeAcknowledged(into: Acknowledged, from: Acknowledged): void {
  into.reports.push(...from.reports);
  into.usedMarks.push(...from.usedMarks);
  into.vacancies.push(...from.vacancies);
  // Runs are sequential: a later run's acknowledged edit replaces an earlier one.
  for (const [id, value] of from.edits) into.edits.set(id, value);
  for (const [id, values] of from.unanswered) {
    into.unanswered.set(id, new Set([...(into.unanswered.get(id) ?? []), ...values]));
  }
}
