import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where `pnpm dev` sends API calls: the Poruch server started by `pnpm --filter @poruch/server dev`. */
const apiTarget = process.env.PORUCH_API_URL ?? 'http://localhost:8080';

/**
 * The server refuses state-changing calls whose Origin is not its own (PUBLIC_URL) or in
 * ALLOWED_ORIGINS (docs/security.md, CSRF). A page of this dev server calling through the proxy
 * is the site itself: its Origin (this server's) is handed on as the API's. Any other Origin is
 * passed as it came.
 */
function sameOriginAsApi(proxy: { on(event: 'proxyReq', listener: ProxyReqListener): unknown }) {
  proxy.on('proxyReq', (proxyReq, req) => {
    const origin = req.headers.origin;
    if (
      origin &&
      req.headers.host &&
      URL.canParse(origin) &&
      new URL(origin).host === req.headers.host
    ) {
      proxyReq.setHeader('origin', new URL(apiTarget).origin);
    }
  });
}
type ProxyReqListener = (
  proxyReq: import('node:http').ClientRequest,
  req: import('node:http').IncomingMessage,
) => void;

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Serves flag-icons' 4:3 SVG flags at /flags/4x3/<code>.svg (core's FLAG_BASE_URL), in dev and in
 * the build, straight from the package @poruch/core depends on, so no copy is checked in.
 */
function flags(): Plugin {
  const coreRequire = createRequire(path.join(here, '../core/package.json'));
  const dir = path.join(
    path.dirname(coreRequire.resolve('flag-icons/package.json')),
    'flags',
    '4x3',
  );
  const files = readdirSync(dir).filter((f) => f.endsWith('.svg'));
  return {
    name: 'poruch-flags',
    configureServer(server) {
      server.middlewares.use('/flags/4x3', (req, res, next) => {
        const name = path.basename((req.url ?? '').split('?')[0] ?? '');
        if (!files.includes(name)) return next();
        res.setHeader('content-type', 'image/svg+xml');
        res.end(readFileSync(path.join(dir, name)));
      });
    },
    generateBundle() {
      for (const f of files) {
        this.emitFile({
          type: 'asset',
          fileName: `flags/4x3/${f}`,
          source: readFileSync(path.join(dir, f)),
        });
      }
    },
  };
}

/**
 * Writes /sw.js from src/pwa/sw.template.js with the build's version (a hash of every output file
 * name) and the entry chunks to precache, so each build is a new worker and the page can ask
 * "New version available. Load New Version?". In dev the template is served as is.
 */
function serviceWorker(): Plugin {
  const template = path.join(here, 'src/pwa/sw.template.js');
  return {
    name: 'poruch-service-worker',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript');
        res.end(
          readFileSync(template, 'utf8')
            .replace("'__VERSION__'", "'dev'")
            .replace("'__PRECACHE__'", "'[]'"),
        );
      });
    },
    generateBundle(_options, bundle) {
      const names = Object.keys(bundle).sort();
      const version = createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12);
      const precache = Object.values(bundle)
        .filter((f) => f.type === 'chunk' && f.isEntry)
        .map((f) => `/${f.fileName}`)
        .concat(
          Object.values(bundle)
            .filter((f) => f.type === 'asset' && f.fileName.endsWith('.css'))
            .map((f) => `/${f.fileName}`),
        );
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: readFileSync(template, 'utf8')
          .replace("'__VERSION__'", `'${version}'`)
          .replace("'__PRECACHE__'", `'${JSON.stringify(precache)}'`),
      });
    },
  };
}

/**
 * Writes a `.br` and a `.gz` beside every text file under assets/, which the server's static
 * plugin sends to browsers that accept them (`preCompressed`); Lighthouse counted 600 KiB of
 * uncompressed JavaScript on home. Only the content-hashed assets: a copy of sw.js or index.html
 * could go stale beside an edited original (the update-prompt test edits sw.js); the server
 * compresses the prerendered pages itself. Every text asset gets both copies, small ones too, so
 * the rule "every asset has its .br and .gz" holds (packages/site/e2e/static-assets.test.ts).
 */
function precompress(): Plugin {
  const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
  let outDir = '';
  return {
    name: 'poruch-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
        );
      for (const file of walk(path.join(outDir, 'assets'))) {
        if (!TEXT.test(file)) continue;
        const body = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/** react-shadow's server-side import, which a browser never runs (the widgets' CDN build does the same). */
const reactDomServerStub = path.join(here, '../widgets/src/loader/reactDomServerStub.ts');

export default defineConfig(({ isSsrBuild }) => ({
  // The SSR build (src/prerender.tsx, run by scripts/prerender.mjs) writes only the prerender
  // module: no flags, service worker, precompression or manifest of its own.
  plugins: isSsrBuild ? [react()] : [react(), flags(), serviceWorker(), precompress()],
  resolve: {
    // In the browser, React is preact/compat, as in the widgets' script-tag build: the entry is a
    // third of the size (96 KB instead of 308 KB), which the first screen evaluates before it
    // answers input (Lighthouse's total blocking time, first paint on a slow phone). The prerender
    // (a server render) keeps React and react-dom/server. react-shadow imports react-dom/server
    // for server rendering, which a browser never runs: a stub.
    alias: isSsrBuild
      ? []
      : [
          { find: /^react-dom\/server$/, replacement: reactDomServerStub },
          { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
          { find: /^react-dom$/, replacement: 'preact/compat' },
          { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
          { find: /^react$/, replacement: 'preact/compat' },
        ],
  },
  build: isSsrBuild
    ? { outDir: 'node_modules/.prerender', emptyOutDir: true, copyPublicDir: false }
    : {
        // dist/.vite/manifest.json: the chunks each lazily loaded screen needs, so the prerender
        // step can list them for the server to preload per route (scripts/prerender.mjs).
        manifest: true,
      },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true, configure: sameOriginAsApi },
      '/env': { target: apiTarget, changeOrigin: true, configure: sameOriginAsApi },
    },
  },
}));
