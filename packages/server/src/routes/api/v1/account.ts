import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { PoruchError, accountDeletionSchema } from '@poruch/core';
import { accounts, services } from '../../../db/schema.js';
import { verifyPassword } from '../../../lib/passwords.js';
import { invalidateMap } from '../../../map/index.js';

/** The logged-in account itself: deletion. */
export async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.delete(
    '/account',
    {
      preHandler: app.requireAccount,
      schema: {
        tags: ['auth'],
        summary: 'Delete the account with its services, vacancies, sessions and subscriptions',
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
        // Services cascade to vacancies and used marks; sessions and push subscriptions cascade
        // from the account. Reports keep the service link as null (anonymised by the FK rule).
        await tx.delete(services).where(eq(services.ownerId, account.id));
        await tx.delete(accounts).where(eq(accounts.id, account.id));
        await app.mail.outbox.enqueue(tx, {
          to: account.email,
          locale: account.locale,
          template: 'accountDeleted',
          params: {},
          key: `accountDeleted:${account.id}`,
        });
      });
      app.mail.worker?.wake();
      await invalidateMap(app);
      await app.endSession(request, reply);
      return { status: true };
    },
  );
}
