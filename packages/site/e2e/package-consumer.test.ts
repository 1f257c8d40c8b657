import { execFile } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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

// @poruch/core and @poruch/widgets as an outside developer gets them: `pnpm pack` of both (the
// builds of `pnpm build`), installed into an app in the system's temp folder, outside the
// workspace, with its own package.json and nothing else of ours. The other packages are the
// versions the workspace has, so the install is served from the pnpm store.

const run = promisify(execFile);
const PACKAGES = ['core', 'widgets'] as const;

/** The version of a package the workspace installed (examples/react-app has the React app's). */
const workspaceVersion = (name: string, dir = 'examples/react-app'): string =>
  (
    JSON.parse(
      readFileSync(path.join(REPO_ROOT, dir, 'node_modules', name, 'package.json'), 'utf8'),
    ) as {
      version: string;
    }
  ).version;

const APP_TSX = `import { useState } from 'react';
import {
  PoruchMap,
  PoruchReport,
  PoruchSearch,
  PoruchVacancies,
  type PoruchSelectDetail,
  type WidgetState,
} from '@poruch/widgets';
import '@poruch/widgets/jsx';
import '@poruch/widgets/map/element';

const params = new URLSearchParams(location.search);
const api = params.get('api') ?? 'https://poruch.org';
const serviceId = params.get('service') ?? '';

export function App() {
  const [states, setStates] = useState<Record<string, WidgetState>>({});
  const [chosen, setChosen] = useState<PoruchSelectDetail | null>(null);
  const track = (name: string) => (state: WidgetState) =>
    setStates((s) => ({ ...s, [name]: state }));
  return (
    <main style={{ maxWidth: 960, margin: '0 auto' }}>
      <output data-testid="states">{JSON.stringify(states)}</output>
      <PoruchSearch apiBase={api} lang="en_GB" channel="c" pageSize={3} onStateChange={track('search')} />
      <PoruchMap
        apiBase={api}
        lang="en_GB"
        channel="c"
        tileUrl="none"
        zoom={4}
        center={{ lat: 52, lng: 19 }}
        onSelect={(d) => setChosen(d)}
        onStateChange={track('map')}
      />
      <PoruchVacancies apiBase={api} lang="en_GB" pageSize={3} onStateChange={track('vacancies')} />
      <PoruchReport apiBase={api} lang="en_GB" serviceId={serviceId} onStateChange={track('report')} />
      <poruch-map api-base={api} lang="en_GB" country="PL" tileUrl="none" scroll-zoom="false" />
      <p>{chosen?.name}</p>
    </main>
  );
}
`;

/** Wrong props, one per line; each must be a type error at the prop. */
const WRONG_TSX = `import { PoruchMap, PoruchVacancies } from '@poruch/widgets';
import '@poruch/widgets/jsx';

export const wrong = (
  <>
    <PoruchMap contry="PL" />
    <PoruchVacancies pageSize="5" />
    <poruch-map zoom={{ level: 4 }} />
  </>
);
`;

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      jsx: 'react-jsx',
      strict: true,
      noEmit: true,
      // The packages' declarations are checked too.
      skipLibCheck: false,
      types: [],
    },
    include: ['src', 'wrong'],
  }),
  'vite.config.ts': `import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
export default defineConfig({ plugins: [react()], base: './' });
`,
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>A React app with @poruch/widgets</title><link rel="icon" href="data:," /></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
  'src/main.tsx': `import { createRoot } from 'react-dom/client';
import { App } from './App';
createRoot(document.getElementById('root')!).render(<App />);
`,
  'src/App.tsx': APP_TSX,
  'wrong/Wrong.tsx': WRONG_TSX,
};

let tmp: string | undefined;
let app: string;
let server: RunningServer | undefined;
let site: StaticServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'poruch-consumer-'));
  app = path.join(tmp, 'app');
  const packed = path.join(tmp, 'tarballs');
  // Starts while the packages are packed and installed; afterAll stops it.
  const serverStarted = startServer().then((s) => (server = s));
  for (const name of PACKAGES) {
    await run('pnpm', ['pack', '--pack-destination', packed], {
      cwd: path.join(REPO_ROOT, 'packages', name),
    });
  }
  const tarballs = await readdir(packed);
  const tarball = (name: string) => {
    const file = tarballs.find((f) => f.startsWith(`poruch-${name}-`));
    if (!file) throw new Error(`[poruch] pnpm pack wrote no tarball of ${name}: ${tarballs}`);
    return `file:${path.join(packed, file)}`;
  };
  const versions = (names: string[]) =>
    Object.fromEntries(names.map((n) => [n, workspaceVersion(n)]));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(app, file)), { recursive: true });
    await writeFile(path.join(app, file), text);
  }
  await writeFile(
    path.join(app, 'package.json'),
    JSON.stringify({
      name: 'poruch-consumer',
      private: true,
      type: 'module',
      dependencies: {
        '@poruch/core': tarball('core'),
        '@poruch/widgets': tarball('widgets'),
        ...versions(['react', 'react-dom']),
      },
      devDependencies: {
        ...versions(['@types/react', '@types/react-dom', '@vitejs/plugin-react', 'vite']),
        typescript: workspaceVersion('typescript', '.'),
      },
    }),
  );
  // Its own one-project workspace: widgets' dependency on @poruch/core@0.1.0 is the tarball too,
  // and packages are real folders (no links into a store or a workspace).
  await writeFile(
    path.join(app, 'pnpm-workspace.yaml'),
    `nodeLinker: hoisted\noverrides:\n  '@poruch/core': '${tarball('core')}'\n`,
  );
  // Not frozen: the app has no lockfile (CI=true makes pnpm expect one).
  await run('pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile'], { cwd: app });
  await serverStarted;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await server?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the packed packages in an app of their own', () => {
  it('installs from the tarballs alone: real folders, no workspace links', async () => {
    for (const name of PACKAGES) {
      const dir = path.join(app, 'node_modules/@poruch', name);
      const stat = await lstat(dir);
      expect(stat.isDirectory() && !stat.isSymbolicLink()).toBe(true);
      expect(await realpath(dir)).toBe(dir);
      const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        exports: Record<string, { types?: string } | string>;
        license: string;
      };
      expect(pkg.license).toBe('MIT');
      expect(JSON.stringify(pkg.dependencies ?? {})).not.toContain('workspace:');
      // Every entry that has code has its declarations in the tarball.
      for (const entry of Object.values(pkg.exports)) {
        if (typeof entry === 'object' && entry.types && !entry.types.includes('*')) {
          await expect(lstat(path.join(dir, entry.types))).resolves.toBeTruthy();
        }
      }
      await expect(lstat(path.join(dir, 'LICENSE'))).resolves.toBeTruthy();
      await expect(lstat(path.join(dir, 'src'))).rejects.toThrow();
    }
  });

  it('type-checks the components and the JSX elements under strict; wrong props are errors', async () => {
    const tsc = path.join(app, 'node_modules/typescript/bin/tsc');
    const out = await run(process.execPath, [tsc, '-p', '.'], { cwd: app }).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
    // Nothing in the app or in the packages' declarations; only the wrong file.
    expect(errors.filter((l) => !l.startsWith('wrong/Wrong.tsx'))).toEqual([]);
    const at = (prop: string) => {
      const lines = WRONG_TSX.split('\n');
      const line = lines.findIndex((l) => l.includes(`${prop}=`));
      return `wrong/Wrong.tsx(${line + 1},${lines[line]!.indexOf(prop) + 1}): error TS2322`;
    };
    expect(errors.some((l) => l.startsWith(at('contry')))).toBe(true);
    expect(out).toContain(`Property 'contry' does not exist`);
    expect(errors.some((l) => l.startsWith(at('pageSize')))).toBe(true);
    expect(errors.some((l) => l.startsWith(at('zoom')))).toBe(true);
    expect(errors).toHaveLength(3);
  }, 180_000);

  it('builds with Vite and renders every component against a real server, on another origin', async () => {
    await run(process.execPath, [path.join(app, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: app,
    });
    site = await startStaticServer(path.join(app, 'dist'));
    const hit = (await (await fetch(`${server!.baseUrl}/api/v1/vacancies?pageSize=1`)).json()) as {
      items: { service: { id: string } }[];
    };
    const serviceId = hit.items[0]!.service.id;

    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(
      `${site.origin}/?api=${encodeURIComponent(server!.baseUrl)}&service=${serviceId}`,
    );
    const states = () =>
      page
        .getByTestId('states')
        .textContent()
        .then((t) => JSON.parse(t || '{}') as unknown);
    await expect
      .poll(states, { timeout: 30_000 })
      .toEqual({ search: 'ready', map: 'ready', vacancies: 'ready', report: 'ready' });
    // The custom element, typed by the JSX entry and defined by its element entry.
    await expect
      .poll(() => page.locator('poruch-map').getAttribute('state'), { timeout: 30_000 })
      .toBe('ready');
    expect(await page.locator('poruch-map').getAttribute('tile-url')).toBe('none');
    expect(await page.locator('.poruch-cluster').count()).toBeGreaterThan(0);
    await screenshot(page, 'package-consumer');
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await context.close();
  }, 120_000);
});
