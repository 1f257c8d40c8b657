/**
 * Capacity of one instance (docs/operations.md#capacity-model): the real server process
 * (`node --import tsx src/main.ts`, info-level JSON logs to a pipe, as in production) over 10k
 * synthetic services, driven by autocannon with a mix of public reads in the proportions of the
 * capacity model, then `/healthz` as the ceiling. PGlite, then PostgreSQL unless `--no-pg`.
 *
 *   pnpm --filter @poruch/server exec tsx bench/capacity.bench.ts [--services 10000]
 *     [--duration 20] [--connections 50] [--no-pg] [--quick]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { cannon, startServerProcess, syntheticDatabase } from './common.js';
import { publicServices } from './loadScenario.js';

const { values: args } = parseArgs({
  options: {
    services: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '50' },
    'no-pg': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
  strict: false,
});
const SERVICES = args.quick ? 2000 : Number(args.services);
const DURATION = args.quick ? 5 : Number(args.duration);
const CONNECTIONS = Number(args.connections);

/**
 * The mix of API requests behind public page views (docs/operations.md#capacity-model): map moves
 * and searches dominate, then profiles, vacancy searches and the runtime configuration.
 */
const MIX = { map: 35, search: 30, profile: 20, vacancies: 10, env: 5 };

/** Shuffled lists of public reads per kind and in the MIX proportions, from real ids and words. */
async function requestMix(base: string): Promise<Record<keyof typeof MIX | 'mixed', string[]>> {
  const items = await publicServices(base);
  const words = [...new Set(items.flatMap((s) => s.name.split(/\s+/)).filter((w) => w.length > 3))];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const make: Record<keyof typeof MIX, () => string> = {
    map: () => {
      const s = pick(items.filter((i) => i.lat !== null));
      const zoom = pick([3, 5, 8, 11, 14]);
      const w = 360 / 2 ** zoom;
      return `/api/v1/map?bbox=${s.lng! - w},${s.lat! - w / 2},${s.lng! + w},${s.lat! + w / 2}&zoom=${zoom}`;
    },
    search: () =>
      pick([
        () => `/api/v1/services?q=${encodeURIComponent(pick(words))}`,
        () => `/api/v1/services?country=${pick(items).countryCode}`,
        () =>
          `/api/v1/services?country=${pick(items).countryCode}&q=${encodeURIComponent(pick(words))}`,
      ])(),
    profile: () => `/api/v1/services/${pick(items).id}`,
    vacancies: () => `/api/v1/vacancies?country=${pick(items).countryCode}`,
    env: () => '/env',
  };
  const shuffle = (list: string[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  const out = { mixed: [] as string[] } as Record<keyof typeof MIX | 'mixed', string[]>;
  for (const [kind, share] of Object.entries(MIX) as [keyof typeof MIX, number][]) {
    out[kind] = Array.from({ length: 400 }, make[kind]);
    out.mixed.push(...out[kind].slice(0, share * 10));
  }
  shuffle(out.mixed);
  return out;
}

/** autocannon over `paths`, each request taking the next path of the list (all connections share it). */
function drive(base: string, paths: string[], duration: number) {
  let i = 0;
  return cannon(duration, {
    url: base,
    connections: CONNECTIONS,
    requests: [
      { method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) },
    ],
  });
}

async function measure(kind: string, env: Record<string, string>) {
  const server = await startServerProcess(env);
  const lists = await requestMix(server.base);
  // Warm-up: every path once, 10 at a time (map indexes, search cache), as a running site has.
  for (const list of Object.values(lists)) {
    for (let i = 0; i < list.length; i += 10) {
      await Promise.all(
        list.slice(i, i + 10).map((p) => fetch(server.base + p).then((r) => r.text())),
      );
    }
  }
  const row = (name: string, r: autocannon.Result) =>
    `${name} ${Math.round(r.requests.average)} req/s (p50 ${r.latency.p50} / p99 ${r.latency.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''})`;
  const ceiling = await cannon(Math.max(5, Math.round(DURATION / 2)), {
    url: `${server.base}/healthz`,
    connections: CONNECTIONS,
  });
  const parts: string[] = [];
  for (const k of Object.keys(MIX) as (keyof typeof MIX)[]) {
    parts.push(row(k, await drive(server.base, lists[k], Math.max(5, Math.round(DURATION / 2)))));
  }
  const mixed = await drive(server.base, lists.mixed, DURATION);
  await server.stop();
  console.log(
    `| ${kind} | **${Math.round(mixed.requests.average)}** | ${mixed.latency.p50} / ${mixed.latency.p99} ms | ${mixed.non2xx} | ${Math.round(ceiling.requests.average)} | ${Math.round((100 * mixed.requests.average) / ceiling.requests.average)} % |`,
  );
  console.log(`|  | ${parts.join('; ')} | | | | |`);
}

console.log(
  `capacity: ${SERVICES} services, ${DURATION} s × ${CONNECTIONS} connections, mix ${JSON.stringify(MIX)}, load ${os.loadavg()[0]!.toFixed(1)}\n`,
);
console.log('| database | mixed req/s | p50 / p99 | non-2xx | /healthz req/s | mixed / ceiling |');
console.log('| --- | --- | --- | --- | --- | --- |');

// PGlite (seeded into a folder and closed, then the server process opens it), then PostgreSQL.
for (const kind of args['no-pg'] ? ['PGlite'] : ['PGlite', 'PostgreSQL']) {
  const data = await syntheticDatabase(
    SERVICES,
    'poruch-capacity',
    kind === 'PostgreSQL' ? (process.env.BENCH_DATABASE_URL ?? '') : undefined,
  );
  await measure(kind, data.env);
  await data.remove();
}
