/**
 * The mixed load (docs/performance.md#load), shared by the full benchmark (bench/load.bench.ts)
 * and its short CI form (src/__tests__/load-short.test.ts), sent by the open-loop generator of
 * bench/openLoop.ts (fixed schedule, latency from the scheduled time):
 *
 * - **Reads** over the public routes a visitor's pages call, in the shares of {@link READS}: map
 *   viewports, searches (words, words with filters, filters alone, near a place, page 2), vacancy
 *   searches, profiles (the API and the server-drawn page) and the home page. Within each kind
 *   the URLs are ranked and drawn with a Zipf popularity (rank r with weight 1/r), so a few are
 *   asked again and again and most rarely, as on a real site; and {@link FRESH_SEARCHES} of the
 *   searches are **never seen before** (a typo or prefix and a second word no one asked), which
 *   no cache holds.
 * - **Writes** (when asked for: {@link WRITE_SHARE} of all requests): "I have used it" marks and
 *   anonymous reports on approved services, and new vacancies by logged-in partners with their
 *   session cookie and anti-forgery token.
 *
 * Every request comes from its own forwarded address (the server runs with TRUST_PROXY, as
 * behind nginx): the per-IP limits on reports (10 an hour) and used marks (30 an hour) are for
 * one visitor, and a load of many visitors must not hit them. Every acknowledged (2xx) write is
 * recorded, so {@link verifyAcknowledged} can prove afterwards that it is in the database.
 */
import { inArray } from 'drizzle-orm';
import type { Database } from '../src/db/index.js';
import { reports, usedMarks, vacancies } from '../src/db/schema.js';
import { TestClient } from '../src/__tests__/helpers/client.js';
import { registration } from '../src/__tests__/helpers/fixtures.js';
import {
  openLoop,
  random,
  schedule,
  type Arrivals,
  type OpenLoopOptions,
  type OpenLoopResult,
  type PlannedRequest,
} from './openLoop.js';

/** Share of each kind among the reads, in percent. `profile page` and `home` are site pages. */
export const READS = {
  map: 30,
  search: 30,
  profile: 15,
  'profile page': 5,
  vacancies: 10,
  home: 10,
} as const;
type ReadKind = keyof typeof READS;

/** Share of the searches that no one asked before (the rest are drawn by popularity). */
export const FRESH_SEARCHES = 0.1;

/** Share of all requests that write, when a run has writes: 5 %. */
export const WRITE_SHARE = 0.05;

/** Shares of the kinds of write. */
const WRITES = { used: 0.4, report: 0.4, vacancy: 0.2 } as const;

export interface LoadPartner {
  serviceId: string;
  cookie: string;
  xsrf: string;
}

/** Draws ranks 0…n−1 with weight 1/(rank+1) (Zipf, exponent 1). */
function zipf(n: number) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / (r + 1);
  return (u: number) => {
    const x = u * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface LoadWorld {
  base: string;
  /** Read paths by kind, most popular first. */
  reads: Record<ReadKind, string[]>;
  /** Words of service names, for never-seen searches. */
  words: string[];
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
}

export const emptyAcknowledged = (): Acknowledged => ({
  reports: [],
  usedMarks: [],
  vacancies: [],
});

/** Adds a later run's acknowledged writes to a total. */
export function mergeAcknowledged(into: Acknowledged, from: Acknowledged): void {
  into.reports.push(...from.reports);
  into.usedMarks.push(...from.usedMarks);
  into.vacancies.push(...from.vacancies);
}

interface Item {
  id: string;
  name: string;
  countryCode: string;
  category: string | null;
  lat: number | null;
  lng: number | null;
}

/** Up to `pages` × 100 approved services, newest first, through the public API. */
export async function publicServices(base: string, pages = 1): Promise<Item[]> {
  const out: Item[] = [];
  for (let page = 1; page <= pages; page++) {
    const res = await fetch(`${base}/api/v1/services?pageSize=100&sort=newest&page=${page}`);
    if (!res.ok) throw new Error(`load: services page ${page}: ${res.status}`);
    const { items } = (await res.json()) as { items: Item[] };
    out.push(...items);
    if (items.length < 100) break;
  }
  return out;
}

const shuffle = <T>(list: T[], rnd: () => number) => {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
};

/**
 * Reads the catalogue through the API, builds the ranked read paths, and registers `partners`
 * partners (HTTP, as a browser: session cookie and XSRF token; the server needs
 * RATE_SIGNUP_PER_IP of at least `partners`). With `pages` (the server serves the built site),
 * the home page and the profile pages are among the reads.
 */
export async function prepareWorld(
  base: string,
  { partners = 10, pages = true }: { partners?: number; pages?: boolean } = {},
): Promise<LoadWorld> {
  const items = await publicServices(base, 10);
  if (!items.length) throw new Error('load: no approved services to read');
  if (pages && (await fetch(`${base}/`)).status !== 200) {
    throw new Error('load: the server does not serve the site (build it: pnpm build)');
  }
  const rnd = random(7);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const located = items.filter((i) => i.lat !== null && i.lng !== null);
  const words = [
    ...new Set(items.flatMap((s) => s.name.split(/[^\p{L}]+/u)).filter((w) => [...w].length >= 4)),
  ];
  const countries = [...new Set(items.map((i) => i.countryCode))];
  const categories = [...new Set(items.map((i) => i.category).filter((c) => c !== null))];
  const distinct = (n: number, make: () => string) => {
    const out = new Set<string>();
    for (let i = 0; out.size < n && i < n * 20; i++) out.add(make());
    return [...out];
  };

  // A 1280×800 viewport at `zoom` around a service (the home page's map opens on Europe).
  const viewport = () => {
    const s = pick(located.length ? located : items);
    const zoom = pick([3, 5, 8, 11, 14]);
    const w = (1280 / 256) * (360 / 2 ** zoom);
    const h = w * (800 / 1280) * Math.cos(((s.lat ?? 50) * Math.PI) / 180);
    const [lat, lng] = [s.lat ?? 50, s.lng ?? 20];
    const f = (x: number) => x.toFixed(4);
    return `/api/v1/map?bbox=${f(lng - w / 2)},${f(lat - h / 2)},${f(lng + w / 2)},${f(lat + h / 2)}&zoom=${zoom}`;
  };
  const word = () => encodeURIComponent(pick(words));
  const searches = [
    () => `/api/v1/services?q=${word()}`,
    () => `/api/v1/services?q=${word()}&country=${pick(countries)}`,
    () => `/api/v1/services?country=${pick(countries)}`,
    () => `/api/v1/services?country=${pick(countries)}&category=${pick(categories)}`,
    () => `/api/v1/services?category=${pick(categories)}&hasVacancy=true`,
    () => {
      const s = pick(located);
      return `/api/v1/services?q=${word()}&near=${s.lat},${s.lng}&radiusKm=50&sort=distance`;
    },
    () => `/api/v1/services?q=${word()}&page=2`,
  ];
  const vacancySearches = [
    () => `/api/v1/vacancies`,
    () => `/api/v1/vacancies?country=${pick(countries)}`,
    () => `/api/v1/vacancies?q=${word()}`,
    () => `/api/v1/vacancies?category=${pick(categories)}&country=${pick(countries)}`,
  ];
  const ids = shuffle(
    items.map((i) => i.id),
    rnd,
  );
  const reads: Record<ReadKind, string[]> = {
    map: ['/api/v1/map?bbox=-25.0000,34.0000,45.0000,71.0000&zoom=4', ...distinct(400, viewport)],
    search: ['/api/v1/services', ...distinct(600, () => pick(searches)())],
    profile: ids.map((id) => `/api/v1/services/${id}`),
    'profile page': ids.map((id) => `/services/${id}`),
    vacancies: distinct(200, () => pick(vacancySearches)()),
    home: ['/', '/provide-help', '/about'],
  };
  if (!pages) {
    reads['profile page'] = [];
    reads.home = [];
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
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      xsrf: decodeURIComponent(client.cookies.get('XSRF-TOKEN') ?? ''),
    });
  }
  return { base, reads, words, approved: items.map((i) => i.id), partners: list };
}

/** Counts shared by every run of one process: forwarded addresses, ids and queries never repeat. */
let sequence = 0;
const runId = Date.now().toString(36);
const asked = new Set<string>();

/** A fresh IPv4 address per request (10.0.0.0/8 has 16.7 million). */
const forwardedFor = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** One or two letters changed, as people mistype. */
function typo(word: string, rnd: () => number): string {
  const chars = [...word];
  const i = 1 + Math.floor(rnd() * Math.max(1, chars.length - 2));
  if (rnd() < 0.5 && i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
  else chars[i] = chars[i - 1]!;
  return chars.join('');
}

/** A search no one asked before in this process: a typo or prefix of a word, and a second word. */
function freshSearch(world: LoadWorld, rnd: () => number): string {
  const pick = () => world.words[Math.floor(rnd() * world.words.length)]!.toLowerCase();
  for (;;) {
    const first = pick();
    const q =
      rnd() < 0.5
        ? `${typo(first, rnd)} ${pick()}`
        : `${[...first].slice(0, 3 + Math.floor(rnd() * 3)).join('')} ${typo(pick(), rnd)}`;
    if (!asked.has(q)) {
      asked.add(q);
      return `/api/v1/services?q=${encodeURIComponent(q)}`;
    }
  }
}

export interface LoadOptions extends Arrivals, OpenLoopOptions {
  /** Send {@link WRITE_SHARE} writes (default: reads only). */
  writes?: boolean;
}

/** The requests of one run: the schedule of `options`, each a read or a write of the mix. */
export function planLoad(world: LoadWorld, options: LoadOptions): PlannedRequest[] {
  const rnd = random(1000 + sequence);
  const kinds = (Object.entries(READS) as [ReadKind, number][]).filter(
    ([k]) => world.reads[k].length,
  );
  const total = kinds.reduce((s, [, w]) => s + w, 0);
  const draw = Object.fromEntries(kinds.map(([k]) => [k, zipf(world.reads[k].length)])) as Record<
    ReadKind,
    (u: number) => number
  >;
  const readKind = () => {
    let x = rnd() * total;
    for (const [k, w] of kinds) if ((x -= w) < 0) return k;
    return kinds[kinds.length - 1]![0];
  };
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const json = { 'content-type': 'application/json' };
  return schedule(options).map((at): PlannedRequest => {
    const n = ++sequence;
    const headers: Record<string, string> = {
      'x-forwarded-for': forwardedFor(n),
      'accept-encoding': 'gzip, deflate, br',
    };
    if (options.writes && rnd() < WRITE_SHARE) {
      const w = rnd();
      if (w < WRITES.used) {
        const serviceId = pick(world.approved);
        const browserId = `load-${runId}-${String(n).padStart(7, '0')}`;
        return {
          at,
          kind: 'used',
          method: 'POST',
          path: `/api/v1/services/${serviceId}/used`,
          headers: { ...headers, ...json },
          body: JSON.stringify({ browserId }),
          keepBody: true,
        };
      }
      if (w < WRITES.used + WRITES.report) {
        return {
          at,
          kind: 'report',
          method: 'POST',
          path: '/api/v1/reports',
          headers: { ...headers, ...json },
          body: JSON.stringify({
            serviceId: pick(world.approved),
            reason: 'other',
            description: `load ${runId} ${n}`,
          }),
          keepBody: true,
        };
      }
      const p = pick(world.partners);
      return {
        at,
        kind: 'vacancy',
        method: 'POST',
        path: `/api/v1/my/services/${p.serviceId}/vacancies`,
        headers: { ...headers, ...json, cookie: p.cookie, 'x-xsrf-token': p.xsrf },
        body: JSON.stringify({ name: `Load vacancy ${runId} ${n}`, salary: '20 zł/h' }),
        keepBody: true,
      };
    }
    const kind = readKind();
    if (kind === 'search' && rnd() < FRESH_SEARCHES) {
      return {
        at,
        kind: 'search, never seen',
        method: 'GET',
        path: freshSearch(world, rnd),
        headers,
      };
    }
    const path = world.reads[kind][draw[kind](rnd())]!;
    return { at, kind, method: 'GET', path, headers };
  });
}

export interface LoadRun extends OpenLoopResult {
  rate: number;
  duration: number;
  acknowledged: Acknowledged;
  /** Writes sent. */
  writes: number;
}

/** Sends one run of the mix and records every acknowledged write. */
export async function runLoad(world: LoadWorld, options: LoadOptions): Promise<LoadRun> {
  const plan = planLoad(world, options);
  const result = await openLoop(world.base, plan, options);
  const acknowledged = emptyAcknowledged();
  let writes = 0;
  for (const a of result.answers) {
    if (!a.request.keepBody) continue;
    writes++;
    if (a.status < 200 || a.status >= 300 || !a.body) continue;
    const parsed = JSON.parse(a.body) as { id?: string; counted?: boolean };
    if (a.request.kind === 'report') acknowledged.reports.push(parsed.id!);
    else if (a.request.kind === 'vacancy') acknowledged.vacancies.push(parsed.id!);
    else if (parsed.counted) {
      acknowledged.usedMarks.push({
        serviceId: a.request.path.split('/')[4]!,
        browserId: (JSON.parse(a.request.body!) as { browserId: string }).browserId,
      });
    }
  }
  return { ...result, rate: options.rate, duration: options.duration, acknowledged, writes };
}

/**
 * Every acknowledged write, looked up in the database: returns what is missing (empty when all
 * are there).
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
  return missing;
}
