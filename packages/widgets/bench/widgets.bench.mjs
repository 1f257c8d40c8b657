// The widget benchmark: `pnpm --filter @poruch/widgets run bench` (and the root `pnpm bench`).
//
//   node packages/widgets/bench/widgets.bench.mjs [--services 100000] [--runs 5]
//
// 1. Seeds the services with the server's seedSynthetic into an embedded database
//    (node_modules/.cache/poruch-widgets-bench, reused by later runs) and writes every point the
//    map shows to points.json (bench/seed.ts).
// 2. Starts the built server (`node packages/server/dist/main.js`) on that data, and a second,
//    foreign origin that serves the two pages compared.
// 3. In headless Debian Chromium, each run opens a fresh browser context (empty cache) and
//    measures, from the moment the map's element is connected to the page until the first cluster
//    is painted (the first animation frame after a cluster is in the DOM):
//    - `<poruch-map>`: the loader is on the page; the element is appended, its chunk loads, it
//      asks /env and the server's clusters for the view;
//    - naive: Leaflet and leaflet.markercluster are on the page; a div is appended, every point
//      is fetched (points.json, gzip) and added to a markerClusterGroup.
//    Then the same again in the same context (warm HTTP cache). Both at 1280×800, the same view.
//    A first, unmeasured widget page lets the server build its cluster index (reported apart).
// 4. Prints the medians and the sizes (scripts/size.mjs) as Markdown for docs/performance.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values: args } = parseArgs({
  options: {
    services: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
  },
});
const SERVICES = Number(args.services);
const RUNS = Number(args.runs);
const CENTER = { lat: 50, lng: 15 };
const ZOOM = 4;

const here = path.dirname(new URL(import.meta.url).pathname);
const widgets = path.resolve(here, '..');
const root = path.resolve(widgets, '../..');
const require = createRequire(path.join(widgets, 'package.json'));
const rootRequire = createRequire(path.join(root, 'package.json'));
const SERVER_MAIN = path.join(root, 'packages/server/dist/main.js');
const DATA_DIR = path.join(root, 'node_modules/.cache/poruch-widgets-bench');

for (const file of [SERVER_MAIN, path.join(widgets, 'dist/cdn/poruch.js')]) {
  if (!existsSync(file)) throw new Error(`[poruch] ${file} is missing: run \`pnpm build\` first.`);
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });

// 1. Data.
execFileSync(
  process.execPath,
  [rootRequire.resolve('tsx/cli'), path.join(here, 'seed.ts'), DATA_DIR, String(SERVICES)],
  { cwd: root, stdio: 'inherit' },
);
const pointsGz = gzipSync(readFileSync(path.join(DATA_DIR, 'points.json')), { level: 6 });
const pointCount = JSON.parse(readFileSync(path.join(DATA_DIR, 'points.json'), 'utf8')).length;

// 2. The server, on the seeded data.
const apiPort = await freePort();
const API = `http://127.0.0.1:${apiPort}`;
const server = spawn(process.execPath, [SERVER_MAIN], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    DATA_DIR,
    PUBLIC_URL: API,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    MAIL_WORKER: 'false',
    // No tile server: the bench measures our code, not the network (the base layer is offline).
    TILE_URL: 'none',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stopServer = () => server.exitCode === null && server.kill('SIGTERM');
process.on('exit', stopServer);
for (let i = 0; ; i++) {
  if (i > 600) throw new Error('[poruch] the server did not start');
  const ok = await fetch(`${API}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}

// The foreign origin with the two pages.
const file = (/** @type {string} */ spec) => readFileSync(require.resolve(spec));
const assets = {
  '/leaflet.js': ['text/javascript', file('leaflet/dist/leaflet.js')],
  '/leaflet.css': ['text/css', file('leaflet/dist/leaflet.css')],
  '/markercluster.js': [
    'text/javascript',
    file('leaflet.markercluster/dist/leaflet.markercluster.js'),
  ],
  '/markercluster.css': [
    'text/css',
    Buffer.concat([
      file('leaflet.markercluster/dist/MarkerCluster.css'),
      file('leaflet.markercluster/dist/MarkerCluster.Default.css'),
    ]),
  ],
};
/** Polls every frame for `find()`; resolves with the time of the frame after it is true. */
const PAINTED = `
  const painted = (find) => new Promise((resolve) => {
    const tick = () => (find() ? requestAnimationFrame(() => resolve(performance.now())) : requestAnimationFrame(tick));
    tick();
  });`;
const pages = {
  '/widget.html': `<!doctype html><meta charset="utf-8"><title>poruch-map</title>
<style>body{margin:0}</style>
<script type="module" src="${API}/widgets/v0/poruch.js"></script>
<script type="module">${PAINTED}
  window.measure = async () => {
    const el = document.createElement('poruch-map');
    el.setAttribute('api-base', ${JSON.stringify(API)});
    el.setAttribute('center', '${CENTER.lat},${CENTER.lng}');
    el.setAttribute('zoom', '${ZOOM}');
    el.style.setProperty('--poruch-map-height', '600px');
    const t0 = performance.now();
    document.body.append(el);
    const t1 = await painted(() => el.shadowRoot?.querySelector('.poruch-shell')?.shadowRoot?.querySelector('.poruch-cluster') ?? el.shadowRoot?.querySelector('.poruch-cluster'));
    return { ms: t1 - t0, clusters: (el.shadowRoot?.querySelector('.poruch-shell')?.shadowRoot ?? el.shadowRoot).querySelectorAll('.poruch-cluster').length };
  };
</script>`,
  '/naive.html': `<!doctype html><meta charset="utf-8"><title>naive markercluster</title>
<style>body{margin:0}#map{height:600px}</style>
<link rel="stylesheet" href="/leaflet.css"><link rel="stylesheet" href="/markercluster.css">
<script src="/leaflet.js"></script><script src="/markercluster.js"></script>
<script>${PAINTED}
  window.measure = async () => {
    const div = document.createElement('div');
    div.id = 'map';
    const t0 = performance.now();
    document.body.append(div);
    const map = L.map(div, { center: [${CENTER.lat}, ${CENTER.lng}], zoom: ${ZOOM}, maxZoom: 18 });
    const points = await (await fetch('/points.json')).json();
    const t1 = performance.now();
    const group = L.markerClusterGroup();
    group.addLayers(points.map((p) => L.marker([p.lat, p.lng], { title: p.name })));
    map.addLayer(group);
    const t2 = await painted(() => div.querySelector('.marker-cluster'));
    return { ms: t2 - t0, fetch: t1 - t0, clusters: div.querySelectorAll('.marker-cluster').length };
  };
</script>`,
};
const pagePort = await freePort();
const PAGES = `http://localhost:${pagePort}`;
const pageServer = createServer((req, res) => {
  const url = (req.url ?? '/').split('?')[0];
  if (url === '/points.json') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    return res.end(pointsGz);
  }
  if (url in pages) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return res.end(pages[url]);
  }
  const asset = assets[url];
  if (!asset) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': asset[0], 'cache-control': 'max-age=3600' });
  res.end(asset[1]);
}).listen(pagePort, '127.0.0.1');

// 3. The browser.
const { chromium } = rootRequire('playwright-core');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const median = (/** @type {number[]} */ xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** @type {Record<string, { cold: number[], warm: number[], fetch: number[], clusters: number }>} */
const results = {
  widget: { cold: [], warm: [], fetch: [], clusters: 0 },
  naive: { cold: [], warm: [], fetch: [], clusters: 0 },
};
const loadAvg = [];
/** One widget page before the runs: the server builds its cluster index on the first request. */
/** @type {number | undefined} */
let firstLoad;
try {
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${PAGES}/widget.html`, { waitUntil: 'load' });
    firstLoad = (await page.evaluate(() => /** @type {any} */ (globalThis).measure())).ms;
    await context.close();
  }
  for (let run = 0; run < RUNS; run++) {
    loadAvg.push(os.loadavg()[0]);
    // Alternate the order, so neither always runs right after the other's garbage.
    for (const kind of run % 2 ? ['naive', 'widget'] : ['widget', 'naive']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      for (const phase of /** @type {const} */ (['cold', 'warm'])) {
        await page.goto(`${PAGES}/${kind}.html`, { waitUntil: 'load' });
        const r = await page.evaluate(() => /** @type {any} */ (globalThis).measure());
        results[kind][phase].push(r.ms);
        if (phase === 'cold' && r.fetch) results[kind].fetch.push(r.fetch);
        results[kind].clusters = r.clusters;
      }
      await context.close();
    }
    process.stdout.write(
      `[bench] run ${run + 1}/${RUNS}: widget ${results.widget.cold.at(-1)?.toFixed(0)} ms, ` +
        `naive ${results.naive.cold.at(-1)?.toFixed(0)} ms\n`,
    );
  }
} finally {
  await browser.close();
  pageServer.close();
  stopServer();
}

// 4. Sizes and the table.
const sizeOut = execFileSync(process.execPath, [path.join(widgets, 'scripts/size.mjs'), '--json'], {
  encoding: 'utf8',
}).trim();
const sizes = JSON.parse(sizeOut.split('\n').at(-1) ?? '[]');
const f = (/** @type {number} */ n) => `${Math.round(n)} ms`;
const w = results.widget;
const n = results.naive;
console.log(`
Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average (1 min) ${Math.min(...loadAvg).toFixed(1)}–${Math.max(...loadAvg).toFixed(1)} during the runs.
${pointCount} services on the map (${SERVICES} seeded), view centre ${CENTER.lat}, ${CENTER.lng} at zoom ${ZOOM}, 1280×800, median of ${RUNS} runs.

| Connected → first clusters painted | \`<poruch-map>\` (server clusters) | naive (every point into leaflet.markercluster) |
| --- | --- | --- |
| cold (empty cache) | ${f(median(w.cold))} (${w.cold.map((x) => Math.round(x)).join(', ')}) | ${f(median(n.cold))} (${n.cold.map((x) => Math.round(x)).join(', ')}) |
| warm (HTTP cache) | ${f(median(w.warm))} | ${f(median(n.warm))} |
| of which fetching the points (cold) | — | ${f(median(n.fetch))} (${(pointsGz.length / 1024 / 1024).toFixed(1)} MB gzip) |
| clusters drawn | ${w.clusters} | ${n.clusters} |
| first page after the server started (builds the cluster index; not in the medians) | ${f(firstLoad ?? Number.NaN)} | |
| target ≤ 1 s (cold) | ${median(w.cold) <= 1000 ? 'met' : 'MISSED'} | |

| Size (gzip, JS + CSS a page downloads) | KB | budget |
| --- | --- | --- |
${sizes.map((/** @type {any} */ c) => `| ${c.name.replace(/<[^>]+>/g, '`$&`')} | ${(c.bytes / 1024).toFixed(1)} | ${c.budget / 1024} |`).join('\n')}
`);
process.exit(0);
