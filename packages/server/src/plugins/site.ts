import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PoruchError } from '@poruch/core';
import type { Env } from '../env.js';

const API_PATHS = /^\/(api|env|healthz|readyz)(\/|$|\?)/;

/**
 * Serves the built site at / in production. Unknown paths that are not API calls get
 * index.html, so the client-side router shows the screen (or sends the user home).
 */
export const sitePlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const index = path.join(env.SITE_DIR, 'index.html');
  const serveSite = env.NODE_ENV === 'production' && fs.existsSync(index);
  if (serveSite) {
    await app.register(fastifyStatic, {
      root: env.SITE_DIR,
      wildcard: false,
      index: false,
      // The site's build writes .br and .gz beside its text files (vite.config.ts precompress).
      preCompressed: true,
      setHeaders: (res, file) => {
        // Vite writes content-hashed names under assets/: they never change.
        if (file.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'no-cache');
        }
      },
    });
  } else if (env.NODE_ENV === 'production') {
    app.log.warn({ siteDir: env.SITE_DIR }, '[poruch] built site not found; run pnpm build');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = request.method === 'GET' && !API_PATHS.test(request.url);
    if (serveSite && wantsPage) {
      const file = request.url.split('?')[0]!;
      // A real file under the site folder (static routes only cover what existed at start).
      const candidate = path.join(env.SITE_DIR, path.normalize(file).replace(/^(\.\.[/\\])+/, ''));
      if (
        candidate.startsWith(env.SITE_DIR) &&
        file !== '/' &&
        fs.existsSync(candidate) &&
        fs.statSync(candidate).isFile()
      ) {
        return reply.sendFile(path.relative(env.SITE_DIR, candidate));
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    throw new PoruchError(404, 'not_found');
  });
});
