import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PoruchError } from '@poruch/core';
import type { Env } from '../env.js';
import { sessionsRepository, type AccountRow } from '../repositories/sessions.js';

/** The session cookie: an opaque random token; only its hash is stored. */
export const SESSION_COOKIE = 'poruch_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in account, or null. Set by the auth plugin before every route. */
    account: AccountRow | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless logged in. */
    requireAccount: (request: FastifyRequest) => Promise<void>;
    /** preHandler: 401 unless logged in, 403 unless an administrator. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /** preHandler: 403 unless a super administrator. */
    requireSuperAdmin: (request: FastifyRequest) => Promise<void>;
    sessions: ReturnType<typeof sessionsRepository>;
    /** Starts a new session for the account and sets the cookie. */
    startSession: (reply: FastifyReply, accountId: string) => Promise<void>;
    /** Ends the request's session and clears the cookie. */
    endSession: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export const authPlugin = fp(async (app: FastifyInstance, { env }: { env: Env }) => {
  const sessions = sessionsRepository(app.db, {
    absoluteMs: env.SESSION_DAYS * 86_400_000,
    idleMs: env.SESSION_IDLE_HOURS * 3_600_000,
  });
  app.decorate('sessions', sessions);
  app.decorateRequest('account', null);

  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // Secure whenever the request came over https (directly or through a trusted proxy).
    secure: 'auto' as const,
  };

  app.addHook('preHandler', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    request.account = token ? await sessions.findAccount(token) : null;
  });

  app.decorate('startSession', async (reply: FastifyReply, accountId: string) => {
    const { token, cookieExpiresAt } = await sessions.create(accountId);
    // The cookie lives until the absolute end; the server ends an idle session earlier.
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: cookieExpiresAt });
  });

  app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await sessions.remove(token);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
  });

  app.decorate('requireAccount', async (request: FastifyRequest) => {
    if (!request.account) throw new PoruchError(401, 'unauthorized');
  });
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (!request.account) throw new PoruchError(401, 'unauthorized');
    if (request.account.type !== 'ADMIN') throw new PoruchError(403, 'forbidden');
  });
  app.decorate('requireSuperAdmin', async (request: FastifyRequest) => {
    if (!request.account) throw new PoruchError(401, 'unauthorized');
    if (request.account.type !== 'ADMIN' || !request.account.isSuper) {
      throw new PoruchError(403, 'forbidden');
    }
  });
});
