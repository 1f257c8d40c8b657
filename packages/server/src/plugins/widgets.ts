import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PoruchError } from '@poruch/core';

interface Manifest {
  version: string;
  major: string;
  files: Record<string, { bytes: number; integrity: string }>;
}

export interface WidgetsPluginOptions {
  /** The script-tag build (`packages/widgets/dist/cdn`). Defaults to finding it beside the server. */
  dir?: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Walks up from this file to `packages/widgets/dist/cdn`, from src/plugins or from dist. */
function findBuild(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    for (const candidate of [
      path.join(dir, 'widgets', 'dist', 'cdn'),
      path.join(dir, 'packages', 'widgets', 'dist', 'cdn'),
    ]) {
      if (fs.existsSync(path.join(candidate, 'manifest.json'))) return candidate;
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

/**
 * Serves the widgets' script-tag build at two prefixes:
 * - `/widgets/<exact version>/…` (`/widgets/0.1.0/poruch.js`): immutable, cached for a year,
 *   with the SRI hashes of `manifest.json`;
 * - `/widgets/v<major>/…` (`/widgets/v0/poruch.js`): the moving major, cached for five minutes,
 *   so a fix reaches every embedding page without their changing the snippet.
 * Any origin may load them (CORS `*`, no credentials, cross-origin resource policy). The files
 * are read into memory once at start; a build without a manifest serves nothing, with a warning.
 */
export const widgetsPlugin = fp(async (app: FastifyInstance, options: WidgetsPluginOptions) => {
  const dir = options.dir ?? findBuild();
  if (!dir || !fs.existsSync(path.join(dir, 'manifest.json'))) {
    app.log.warn('[poruch] widgets build not found; run pnpm build');
    return;
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const files = new Map<string, Buffer>();
  for (const name of [...Object.keys(manifest.files), 'manifest.json']) {
    files.set(name, fs.readFileSync(path.join(dir, name)));
  }

  app.get<{ Params: { version: string; '*': string } }>(
    '/widgets/:version/*',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const { version } = request.params;
      const name = request.params['*'];
      const exact = version === manifest.version;
      const body = files.get(name);
      if ((!exact && version !== manifest.major) || !body) throw new PoruchError(404, 'not_found');
      const integrity = manifest.files[name]?.integrity;
      reply
        .header('content-type', TYPES[path.extname(name)] ?? 'application/octet-stream')
        .header(
          'cache-control',
          exact
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=300, stale-while-revalidate=86400',
        )
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff');
      if (integrity) reply.header('etag', `"${integrity}"`);
      if (integrity && request.headers['if-none-match'] === `"${integrity}"`) {
        return reply.code(304).send();
      }
      return reply.send(body);
    },
  );
});
