import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PoruchError,
  idParamsSchema,
  reconfirmBodySchema,
  reconfirmedSchema,
  type Reconfirmed,
} from '@poruch/core';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';
import { invalidateMap } from '../../../map/index.js';
import { confirmService, verifyReconfirmToken } from '../../../reconfirm/index.js';

/**
 * Yearly re-confirmation (docs/product.md § Re-confirmation): the one-click "Still active" link
 * of the mail (`POST reconfirm`, the signed token is the authority: no login, no anti-forgery
 * token) and the owner's "Confirm" button in the dashboard (`POST my/services/:id/confirm`).
 */
export async function reconfirmRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['my services'];
  const limit = rateLimit(app.rateLimitStore, [
    { name: 'reconfirm-ip', max: 60, windowMs: 60_000, key: byIp },
  ]);

  const confirm = async (where: Parameters<typeof confirmService>[1]): Promise<Reconfirmed> => {
    const result = await confirmService(app.db, where, app.now());
    if (!result) {
      throw new PoruchError(
        where.cycle ? 400 : 404,
        where.cycle ? 'reconfirm_link_expired' : 'resource_was_not_found',
      );
    }
    const { before, after } = result;
    if (after.status !== 'approved') throw new PoruchError(409, 'service_not_approved');
    // A lapsed service is back on the map (search and profiles follow the write by themselves).
    if (before.confirmation !== after.confirmation)
      await invalidateMap(app, { id: after.id, before });
    return { id: after.id, name: after.name, confirmedAt: after.confirmedAt!.toISOString() };
  };

  app.post(
    '/reconfirm',
    {
      config: { public: true, csrf: false },
      preHandler: limit,
      schema: {
        tags,
        summary: 'Confirm a service is still active by the signed link of its re-confirmation mail',
        body: reconfirmBodySchema,
        response: { 200: reconfirmedSchema },
      },
    },
    async (request) => {
      const token = verifyReconfirmToken(app.mail.unsubscribeSecret, request.body.token, app.now());
      if (!token) throw new PoruchError(400, 'reconfirm_link_invalid');
      if (token === 'expired') throw new PoruchError(400, 'reconfirm_link_expired');
      return confirm({ id: token.id, cycle: token.confirmedAt });
    },
  );

  app.post(
    '/my/services/:id/confirm',
    {
      preHandler: app.requireAccount,
      schema: {
        tags,
        summary: 'Confirm an approved service of mine is still active (starts a new yearly cycle)',
        params: idParamsSchema,
        response: { 200: reconfirmedSchema },
      },
    },
    async (request) => confirm({ id: request.params.id, ownerId: request.account!.id }),
  );
}
