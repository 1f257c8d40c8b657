import { createHash } from 'node:crypto';
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

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The build served: its exact version and the loader's (`poruch.js`) SRI hash, which
     * `GET /env` hands the embed builder. Undefined without a build.
     */
    widgetsRelease?: { version: string; integrity: string };
  }
}

export interface WidgetsPluginOptions {
  /** The script-tag build (`packages/widgets/dist/cdn`). Defaults to finding it beside the server. */
  dir?: string;
  /**
   * Earlier releases kept on the server (`WIDGETS_RELEASES_DIR`): one `<version>/` folder each, as
   * `pnpm release` writes them into `release/widgets/`. Each is served at `/widgets/<version>/`,
   * and the newest of a major other than the build's at `/widgets/v<major>/`.
   */
  releases?: string;
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
 * A rollup output name with a content hash (`chunks/runtime-CLEo4gcX.js`,
 * `map/element-7nDqB8Sm.js`): the same name is always the same bytes, under any prefix.
 */
export const HASHED_WIDGET_FILE = /-[A-Za-z0-9_-]{8}\.js$/;

/** The Vary header with Accept-Encoding added to what an earlier hook set (CORS: Origin). */
export function withAcceptEncoding(current: unknown): string {
  const list = current
    ? String(current)
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
  if (list.includes('*') || list.some((v) => v.toLowerCase() === 'accept-encoding')) {
    return list.join(', ');
  }
  return [...list, 'Accept-Encoding'].join(', ');
}

/** One file of the build with its precompressed copies (scripts/compress.mjs), if written. */
interface WidgetFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
}

/** br, then gzip, else none, by the request's Accept-Encoding (q=0 refuses). */
function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const q = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, weight ? Number(weight.slice(2)) : 1);
  }
  const ok = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/** A build's manifest and files, read into memory. */
function readBuild(dir: string): { manifest: Manifest; files: Map<string, WidgetFile> } {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file) : undefined);
  const files = new Map<string, WidgetFile>();
  for (const name of [...Object.keys(manifest.files), 'manifest.json']) {
    const file = path.join(dir, name);
    const body = fs.readFileSync(file);
    const integrity =
      manifest.files[name]?.integrity ??
      `sha384-${createHash('sha384').update(body).digest('base64')}`;
    // Weak: the same validator for every encoding of the same bytes (RFC 9110 §8.8.1).
    files.set(name, {
      body,
      br: read(`${file}.br`),
      gzip: read(`${file}.gz`),
      etag: `W/"${integrity}"`,
    });
  }
  return { manifest, files };
}

/** `a` is a later release than `b` (x.y.z compared as numbers). */
const later = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  const i = x!.findIndex((n, k) => n !== y![k]);
  return i >= 0 && x![i]! > y![i]!;
};

/**
 * Serves the widgets' script-tag build at two prefixes:
 * - `/widgets/<exact version>/…` (`/widgets/0.1.0/poruch.js`): immutable, cached for a year,
 *   with the SRI hashes of `manifest.json`;
 * - `/widgets/v<major>/…` (`/widgets/v0/poruch.js`): the moving major. Its entry points (the
 *   loader `poruch.js` and `manifest.json`, whose names do not change between builds) are cached
 *   for five minutes and then revalidated (ETag, 304), so a fix reaches every embedding page
 *   without their changing the snippet; the content-hashed chunks they import are immutable.
 * Each file goes out brotli- or gzip-encoded when the browser accepts it, from the copies the
 * build wrote (`Vary: Accept-Encoding`). Any origin may load them (CORS `*`, no credentials,
 * cross-origin resource policy). The files are read into memory once at start; a build without
 * a manifest serves nothing, with a warning.
 *
 * Earlier releases (`releases`) stay served the same way, so a page pinned to an exact version,
 * or to an older major, keeps working after the server moves on.
 */
export const widgetsPlugin = fp(async (app: FastifyInstance, options: WidgetsPluginOptions) => {
  const dir = options.dir ?? findBuild();
  if (!dir || !fs.existsSync(path.join(dir, 'manifest.json'))) {
    app.log.warn('[poruch] widgets build not found; run pnpm build');
    return;
  }
  const build = readBuild(dir);
  const { manifest } = build;
  // Exact version → build; major → the build, or for another major its newest final release.
  const exact = new Map([[manifest.version, build]]);
  const majors = new Map([[manifest.major, build]]);
  const folders =
    options.releases && fs.existsSync(options.releases)
      ? fs.readdirSync(options.releases, { withFileTypes: true })
      : [];
  for (const folder of folders.map((d) => path.join(d.parentPath, d.name))) {
    if (!fs.existsSync(path.join(folder, 'manifest.json'))) continue;
    const release = readBuild(folder);
    const { version, major } = release.manifest;
    if (exact.has(version)) continue;
    exact.set(version, release);
    const newest = majors.get(major);
    if (major === manifest.major || version.includes('-')) continue;
    if (!newest || later(version, newest.manifest.version)) majors.set(major, release);
  }

  const loader = manifest.files['poruch.js'];
  if (loader)
    app.decorate('widgetsRelease', { version: manifest.version, integrity: loader.integrity });

  app.get<{ Params: { version: string; '*': string } }>(
    '/widgets/:version/*',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const { version } = request.params;
      const name = request.params['*'];
      const pinned = exact.get(version);
      const file = (pinned ?? majors.get(version))?.files.get(name);
      if (!file) throw new PoruchError(404, 'not_found');
      const immutable = !!pinned || HASHED_WIDGET_FILE.test(name);
      reply
        .header('content-type', TYPES[path.extname(name)] ?? 'application/octet-stream')
        .header(
          'cache-control',
          immutable
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=300, stale-while-revalidate=86400',
        )
        .header('vary', withAcceptEncoding(reply.getHeader('vary')))
        .header('etag', file.etag)
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff');
      const bare = file.etag.slice(2);
      const match = request.headers['if-none-match'];
      if (
        match?.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === bare)
      ) {
        return reply.code(304).send();
      }
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      if (encoding === 'br' && file.br) return reply.header('content-encoding', 'br').send(file.br);
      if (encoding === 'gzip' && file.gzip) {
        return reply.header('content-encoding', 'gzip').send(file.gzip);
      }
      return reply.send(file.body);
    },
  );
});
