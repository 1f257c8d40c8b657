/**
 * The sending side of the open-loop generator (bench/openLoop.ts), in a worker thread of its own so
 * that neither the server under test nor the bench's bookkeeping shares its event loop. Plain
 * JavaScript so that it starts the same under tsx (benches) and under Vitest (tests).
 *
 * workerData: { base, requests: [{ at, method, path, headers, body, keepBody }], maxSockets,
 * timeoutMs }. Each request is sent at its scheduled time `at` (ms after the start) whatever is
 * still outstanding: a timer wakes for the next due request and sends every request that is due.
 * Its latency runs from the scheduled time, not from the send, so a late send (the generator
 * behind, or every socket of the cap busy) counts against the server's answer time instead of
 * hiding it. Posts one message: per request the status (0 = socket error or timeout), the latency
 * and the send lag (both from the scheduled time, ms), whether the cap was hit, and the body when
 * `keepBody`.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, requests, maxSockets, timeoutMs } = workerData;
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
const n = requests.length;
const status = new Int32Array(n);
const latency = new Float64Array(n);
const lag = new Float64Array(n);
const atCap = new Uint8Array(n);
const bodies = new Array(n).fill(null);
const errors = {};
let inFlight = 0;
let maxInFlight = 0;
let done = 0;
let next = 0;
let start = 0;

function finish() {
  agent.destroy();
  parentPort.postMessage({
    status,
    latency,
    lag,
    atCap,
    bodies,
    errors,
    maxInFlight,
    elapsedMs: performance.now() - start,
  });
}

function send(i) {
  const r = requests[i];
  const scheduled = start + r.at;
  lag[i] = performance.now() - scheduled;
  if (inFlight >= maxSockets) atCap[i] = 1;
  inFlight++;
  if (inFlight > maxInFlight) maxInFlight = inFlight;
  let settled = false;
  const end = (code, error) => {
    if (settled) return;
    settled = true;
    inFlight--;
    status[i] = code;
    latency[i] = performance.now() - scheduled;
    if (error) errors[error] = (errors[error] ?? 0) + 1;
    if (++done === n) finish();
  };
  const req = http.request(
    {
      agent,
      host: url.hostname,
      port: url.port,
      method: r.method,
      path: r.path,
      headers:
        r.body === undefined
          ? r.headers
          : { ...r.headers, 'content-length': Buffer.byteLength(r.body) },
    },
    (res) => {
      const chunks = [];
      res.on('data', (c) => {
        if (r.keepBody) chunks.push(c);
      });
      res.on('end', () => {
        if (r.keepBody) bodies[i] = Buffer.concat(chunks).toString('utf8');
        end(res.statusCode ?? 0);
      });
      res.on('error', (e) => end(0, e.code ?? e.message));
    },
  );
  req.setTimeout(timeoutMs, () => {
    req.destroy(new Error('timeout'));
  });
  req.on('error', (e) => end(0, e.code ?? e.message));
  req.end(r.body);
}

function tick() {
  const now = performance.now() - start;
  while (next < n && requests[next].at <= now) send(next++);
  if (next < n) setTimeout(tick, Math.max(0, requests[next].at - (performance.now() - start)));
}

if (n === 0) {
  start = performance.now();
  finish();
} else {
  start = performance.now();
  tick();
}
