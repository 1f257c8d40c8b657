/**
 * An open-loop HTTP load generator without coordinated omission (docs/performance.md#load).
 *
 * A plan is a list of requests, each with the time it is due. {@link openLoop} sends each at that
 * time whether or not earlier answers have come (the sending runs in a worker thread of its own,
 * bench/openLoop.worker.mjs, over node:http keep-alive sockets, up to `maxSockets` at once), and
 * measures every latency from the **scheduled** time. So a slow answer cannot slow the sending
 * down and hide the requests that would have queued behind it, as a closed loop of N connections
 * (autocannon) does. When every socket of the cap is busy a request waits for one, and its wait
 * counts in its latency; such requests are counted (`atCap`), and so are sends the generator
 * itself made late (`late`: more than {@link LATE_MS} after their time). Percentiles are exact
 * (every latency is kept).
 */
import { Worker } from 'node:worker_threads';
import { pct } from './common.js';

export interface PlannedRequest {
  /** When to send it, in ms after the start of the run. */
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Return the answer's body (for writes: their ids). */
  keepBody?: boolean;
  /** For the report by kind. */
  kind: string;
}

export interface Arrivals {
  /** Requests per second. */
  rate: number;
  /** Seconds. */
  duration: number;
  /** `constant`: one every 1/rate s; `poisson`: exponential gaps with that mean. */
  process?: 'constant' | 'poisson';
  /** For the Poisson gaps, so two runs send at the same times. */
  seed?: number;
}

/** A send more than this after its scheduled time is late (the generator could not keep up). */
export const LATE_MS = 10;
/**
 * At most 1 send in this many may be late for the schedule to count as kept. A late send's
 * latency still runs from its scheduled time, so lateness already counts against the p99; the
 * rule only catches a generator that fell behind. On 2 cores shared with the server, a busy server
 * delays a few sends in a thousand by a few ms past LATE_MS, whatever the mix: a stricter rule
 * judged those delays instead of the server (docs/performance.md § Load).
 */
export const LATE_SHARE = 100;

/** A deterministic generator in [0, 1). */
export function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The scheduled send times (ms) of a run. */
export function schedule({ rate, duration, process = 'constant', seed = 1 }: Arrivals): number[] {
  const out: number[] = [];
  const end = duration * 1000;
  const gap = 1000 / rate;
  const rnd = random(seed);
  for (let t = process === 'poisson' ? -Math.log(1 - rnd()) * gap : 0; t < end;) {
    out.push(t);
    t += process === 'poisson' ? -Math.log(1 - rnd()) * gap : gap;
  }
  return out;
}

export interface Latencies {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

export const latencies = (values: number[]): Latencies => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: sorted.length ? pct(sorted, 50) : 0,
    p99: sorted.length ? pct(sorted, 99) : 0,
    p999: sorted.length ? pct(sorted, 99.9) : 0,
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
  };
};

export interface Answer {
  request: PlannedRequest;
  /** HTTP status; 0 for a socket error or a timeout. */
  status: number;
  /** From the scheduled time to the end of the answer, ms. */
  latency: number;
  /** From the scheduled time to the send, ms. */
  lag: number;
  /** Sent while every socket of the cap was busy (so it waited for one). */
  atCap: boolean;
  body: string | null;
}

export interface OpenLoopResult {
  answers: Answer[];
  /** Every request, from its scheduled time. */
  latency: Latencies;
  byKind: Record<string, Latencies>;
  /** Non-2xx answers, socket errors and timeouts. */
  errors: number;
  /** `status kind` (0 = no answer) and socket error codes, with counts. */
  statuses: Record<string, number>;
  /** Sends more than LATE_MS after their time. */
  late: number;
  /** The send lag: p99 and max, ms. */
  lag: { p99: number; max: number };
  atCap: number;
  maxInFlight: number;
  /** Requests answered per second of the run (from the first send to the last answer). */
  achieved: number;
  /**
   * The schedule was kept: no request waited for a socket, and at most 1 in {@link LATE_SHARE}
   * was sent late (a pause of the machine; its latency still counts from its time).
   */
  onSchedule: boolean;
}

export interface OpenLoopOptions {
  /** Most sockets open at once; a request due while all are busy waits for one. */
  maxSockets?: number;
  /** Per request, ms; an answer slower than this counts as an error. */
  timeoutMs?: number;
}

const WORKER = new URL('./openLoop.worker.mjs', import.meta.url);

/** Sends `plan` (sorted by `at`) against `base`; see the module comment. */
export async function openLoop(
  base: string,
  plan: PlannedRequest[],
  { maxSockets = 512, timeoutMs = 10_000 }: OpenLoopOptions = {},
): Promise<OpenLoopResult> {
  const requests = plan.map(({ kind: _kind, ...r }) => r);
  const worker = new Worker(WORKER, { workerData: { base, requests, maxSockets, timeoutMs } });
  const raw = await new Promise<{
    status: Int32Array;
    latency: Float64Array;
    lag: Float64Array;
    atCap: Uint8Array;
    bodies: (string | null)[];
    errors: Record<string, number>;
    maxInFlight: number;
    elapsedMs: number;
  }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load generator exited (${code})`)));
  });
  await worker.terminate();
  const answers: Answer[] = plan.map((request, i) => ({
    request,
    status: raw.status[i]!,
    latency: raw.latency[i]!,
    lag: raw.lag[i]!,
    atCap: raw.atCap[i] === 1,
    body: raw.bodies[i] ?? null,
  }));
  const statuses: Record<string, number> = { ...raw.errors };
  const kinds = new Map<string, number[]>();
  let errors = 0;
  for (const a of answers) {
    const list = kinds.get(a.request.kind) ?? [];
    kinds.set(a.request.kind, list);
    list.push(a.latency);
    if (a.status < 200 || a.status >= 300) {
      errors++;
      const key = `${a.status} ${a.request.kind}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  }
  const lags = latencies(answers.map((a) => a.lag));
  const late = answers.filter((a) => a.lag > LATE_MS).length;
  const atCap = answers.filter((a) => a.atCap).length;
  return {
    answers,
    latency: latencies(answers.map((a) => a.latency)),
    byKind: Object.fromEntries([...kinds].map(([k, v]) => [k, latencies(v)])),
    errors,
    statuses,
    late,
    lag: { p99: lags.p99, max: lags.max },
    atCap,
    maxInFlight: raw.maxInFlight,
    achieved: answers.length / (raw.elapsedMs / 1000),
    onSchedule: atCap === 0 && late <= answers.length / LATE_SHARE,
  };
}
