import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PoruchError, accountDeletionSchema, accountExportSchema } from '@poruch/core';
import type { Env } from '../../../env.js';
import { verifyPassword } from '../../../lib/passwords.js';
import { byAccountEmail, passwordGuesses, rateLimit } from '../../../lib/rate-limiter.js';
import { invalidateMap } from '../../../map/index.js';
import { keepOneSuperAdmin } from '../../../repositories/administrators.js';
import { eraseAccount, exportAccount } from '../../../repositories/privacy.js';

/** The logged-in account itself: its data export and its deletion (docs/security.md § Privacy). */
export async function accountRoutes(fastify: FastifyInstance, { env }: { env: Env }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The password check counts against the account's one limit on password guesses, with login.
  const guesses = rateLimit(app.rateLimitStore, [
    passwordGuesses(env.RATE_LOGIN_PER_ACCOUNT, byAccountEmail),
  ]);

  app.get(
    '/account/export',
    {
      preHandler: app.requireAccount,
      schema: {
        tags: ['auth'],
        summary: 'Download everything Poruch keeps about my account, as JSON',
        description:
          'The account (no password hash), services, vacancies, reports filed while logged in, ' +
          '"used" marks on the services (when, not who), push subscriptions (no keys) and the ' +
          'mail sent to the address. Only for the account itself; sent as an attachment.',
        response: { 200: accountExportSchema },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      const data = await exportAccount(app.db, account);
      const day = data.exportedAt.slice(0, 10);
      return reply
        .header('content-disposition', `attachment; filename="poruch-my-data-${day}.json"`)
        .header('cache-control', 'no-store')
        .send(data);
    },
  );

  app.delete(
    '/account',
    {
      preHandler: [app.requireAccount, guesses],
      schema: {
        tags: ['auth'],
        summary: 'Delete the account and erase its personal data everywhere',
        description:
          'Services, vacancies, sessions, push subscriptions and queued mail go; reports and ' +
          'audit events stay anonymised (docs/security.md § Privacy).',
        body: accountDeletionSchema,
        response: { 200: z.object({ status: z.boolean() }) },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      if (!(await verifyPassword(request.body.currentPassword, account.passwordHash))) {
        throw new PoruchError(400, 'wrong_current_password');
      }
      await app.db.transaction(async (tx) => {
        // The last super administrator cannot go (409 last_super_admin).
        if (account.isSuper) await keepOneSuperAdmin(tx, account.id);
        await eraseAccount(tx, account);
        // The notice goes to the address once; after delivery its row keeps no address, and
        // its key holds no id.
        await app.mail.outbox.enqueue(tx, {
          to: account.email,
          locale: account.locale,
          template: 'accountDeleted',
          params: {},
          key: `accountDeleted:${randomUUID()}`,
        });
      });
      app.mail.worker?.wake();
      await invalidateMap(app);
      await app.endSession(request, reply);
      return { status: true };
    },
  );
}
