/**
 * Lighthouse (mobile preset: Moto G Power emulation, simulated slow 4G and 4x CPU slowdown) on the
 * built site, served by the built server: home and one service profile page. Prints performance,
 * accessibility, best practices and SEO per page, and the targets (performance ≥ 95,
 * accessibility 100, best practices ≥ 95, SEO 100).
 *
 *   pnpm run build && pnpm exec tsx packages/site/bench/lighthouse.bench.ts
 *
 * `CHROMIUM_PATH` overrides /usr/bin/chromium. `LIGHTHOUSE_RUNS` (default 3) runs each page that
 * many times and reports the median performance score, since one run is noisy on a loaded machine.
 * `LIGHTHOUSE_REPORT_DIR` writes each run's full report there as JSON.
 * `LIGHTHOUSE_PAGES` (e.g. `profile`) measures only the pages whose name contains one of its
 * comma-separated words.
 * `LIGHTHOUSE_TILES` says where the map's tiles come from: `none` (the default: the built-in world
 * outline, no tile requests), `stub` (a tile server on loopback answering every tile with a
 * picture, as a reachable tile server does) or `public` (the server's default, OpenStreetMap's
 * tiles: on a machine without internet every tile fails, and Chromium logs each failure to the
 * console, which best practices' errors-in-console audit counts).
 * Exits 1 when a target is missed and `LIGHTHOUSE_STRICT=1` is set; otherwise it only reports.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { REPO_ROOT } from '../e2e/fixtures/paths.js';
import { startServer } from '../e2e/fixtures/server.js';

// chrome-launcher is lighthouse's own dependency; resolve it through lighthouse.
const require = createRequire(createRequire(import.meta.url).resolve('lighthouse'));
const chromeLauncher = require('chrome-launcher') as typeof import('chrome-launcher');

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 95,
  seo: 100,
};
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
/** `LIGHTHOUSE_REPORT_DIR`: where to write each run's full report (JSON), to read its audits. */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;

/** `LIGHTHOUSE_PAGES`: only the pages whose name contains one of these words. */
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',')
  .map((w) => w.trim())
  .filter(Boolean);

type Scores = Record<Category, number>;

interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
}

/** A 1×1 PNG: every tile of the stub tile server (the map draws it at tile size). */
const TILE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8v5ThPwAHhgKxsJxYVQAAAABJRU5ErkJggg==',
  'base64',
);

/** A tile server on loopback answering every request with TILE_PNG, cacheable. */
async function startTileStub(): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'image/png',
      'cache-control': 'public, max-age=31536000, immutable',
      'access-control-allow-origin': '*',
    });
    res.end(TILE_PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, close: () => server.close() };
}

async function main(): Promise<void> {
  // The map's tiles (LIGHTHOUSE_TILES): by default none, so the map draws its built-in world
  // outline and no tile request fails on a machine without internet.
  const tiles = process.env.LIGHTHOUSE_TILES ?? 'none';
  const stub = tiles === 'stub' ? await startTileStub() : undefined;
  // `public`: the server's default TILE_URL (the test server's own default is none).
  const tileEnv = {
    TILE_URL:
      tiles === 'public' ? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' : (stub?.url ?? 'none'),
  };
  // A copy of the built site: another build of packages/site/dist during the runs (the machine
  // is shared) would otherwise replace the chunks under the page being measured.
  const siteDir = mkdtempSync(path.join(os.tmpdir(), 'poruch-lighthouse-site-'));
  cpSync(path.join(REPO_ROOT, 'packages/site/dist'), siteDir, { recursive: true });
  const server = await startServer({ env: { ...tileEnv, SITE_DIR: siteDir } });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  let missed = false;
  try {
    const list = (await (await fetch(`${server.baseUrl}/api/v1/services?pageSize=1`)).json()) as {
      items: { id: string }[];
    };
    const serviceId = list.items[0]?.id;
    if (!serviceId) throw new Error('no service to profile: the demo seed is empty');
    // Each page in both languages (`?lang=`: Chrome's own Accept-Language would pick one).
    const pages = [
      { name: 'home', url: `${server.baseUrl}/?lang=ua` },
      { name: 'home (English)', url: `${server.baseUrl}/?lang=en_GB` },
      { name: 'service profile', url: `${server.baseUrl}/services/${serviceId}?lang=ua` },
      {
        name: 'service profile (English)',
        url: `${server.baseUrl}/services/${serviceId}?lang=en_GB`,
      },
    ].filter((p) => !PAGES || PAGES.some((word) => p.name.includes(word)));
    console.log(
      `Lighthouse ${RUNS} run(s) per page, mobile preset, tiles: ${tiles}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${os.cpus().length} CPUs`,
    );
    for (const p of pages) {
      const runs: { scores: Scores; audits: Audit[] }[] = [];
      for (let i = 0, attempts = 0; i < RUNS; attempts++) {
        const result = await lighthouse(p.url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
        });
        if (!result) throw new Error(`no Lighthouse result for ${p.url}`);
        const lhr = result.lhr;
        // A run Lighthouse could not measure (NO_NAVSTART on a busy machine) scores 0: run again.
        if (lhr.runtimeError && attempts < RUNS * 2) {
          console.log(`  (${p.name}: ${lhr.runtimeError.code}, run again)`);
          continue;
        }
        if (REPORT_DIR) {
          mkdirSync(REPORT_DIR, { recursive: true });
          writeFileSync(
            path.join(REPORT_DIR, `${p.name.replace(/\W+/g, '-')}-${i + 1}.json`),
            JSON.stringify(lhr),
          );
        }
        const scores = Object.fromEntries(
          CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
        ) as Scores;
        runs.push({ scores, audits: Object.values(lhr.audits) as Audit[] });
        i++;
      }
      // The run with the median performance score stands for the page.
      runs.sort((a, b) => a.scores.performance - b.scores.performance);
      const median = runs[Math.floor(runs.length / 2)]!;
      const line = CATEGORIES.map((c) => {
        const ok = median.scores[c] >= TARGETS[c];
        if (!ok) missed = true;
        return `${c} ${median.scores[c]}${ok ? '' : ` (target ${TARGETS[c]})`}`;
      }).join(', ');
      console.log(`${p.name}: ${line}`);
      if (RUNS > 1)
        console.log(
          `  performance over ${RUNS} runs: ${runs.map((r) => r.scores.performance).join(', ')}`,
        );
      const metrics = [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
      ];
      console.log(
        `  ${metrics
          .map((id) => median.audits.find((a) => a.id === id))
          .filter((a): a is Audit => !!a)
          .map((a) => `${a.id} ${a.displayValue ?? ''}`.trim())
          .join(' · ')}`,
      );
      const failing = median.audits.filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          (a.scoreDisplayMode === 'binary' ||
            a.scoreDisplayMode === 'numeric' ||
            a.scoreDisplayMode === 'metricSavings'),
      );
      for (const a of failing)
        console.log(`  - ${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    }
  } finally {
    chrome.kill();
    await server.stop();
    stub?.close();
    rmSync(siteDir, { recursive: true, force: true });
  }
  if (missed && process.env.LIGHTHOUSE_STRICT === '1') process.exitCode = 1;
}

await main();
