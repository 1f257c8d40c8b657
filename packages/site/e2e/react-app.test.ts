import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectErrors,
  launchBrowser,
  REPO_ROOT,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { startStaticServer, type StaticServer } from './fixtures/staticServer.js';

// examples/react-app is built here, not by `pnpm build`, so the other tests do not wait for it.
// It uses the ESM build of @poruch/widgets (dist/esm, from `pnpm build`) with the app's own React.
const APP = path.join(REPO_ROOT, 'examples/react-app');

let server: RunningServer | undefined;
let site: StaticServer | undefined;
let browser: Browser | undefined;
let outDir: string | undefined;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'poruch-react-app-'));
  const [{ build }, running] = await Promise.all([import('vite'), startServer()]);
  server = running;
  await build({
    root: APP,
    configFile: path.join(APP, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  // A second origin: the app is not served by the API's server.
  site = await startStaticServer(outDir);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await server?.stop();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('examples/react-app', () => {
  it('renders the search results and the map from the ESM build, on a foreign origin', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${site!.origin}/?api=${encodeURIComponent(server!.baseUrl)}`);

    await expect
      .poll(() => page.locator('.result').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(() => page.locator('.poruch-cluster').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    // The offline base layer (country shapes) is drawn.
    expect(await page.locator('.leaflet-overlay-pane path').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('chosen').textContent()).toBe('Choose a point on the map.');
    await screenshot(page, 'example-react-app');
    expect(failed).toEqual([]);
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await context.close();
  });
});
