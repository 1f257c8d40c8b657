import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where `pnpm dev` sends API calls: the Poruch server started by `pnpm --filter @poruch/server dev`. */
const apiTarget = process.env.PORUCH_API_URL ?? 'http://localhost:8080';

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

export default defineConfig({
  plugins: [react(), flags(), serviceWorker()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/env': { target: apiTarget, changeOrigin: true },
    },
  },
});
