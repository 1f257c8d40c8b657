import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PoruchError,
  campaignInputSchema,
  campaignSchema,
  idParamsSchema,
  pageOf,
} from '@poruch/core';
import { audit } from '../../../repositories/catalogue.js';
import {
  campaignToApi,
  countRecipients,
  createCampaign,
  findCampaign,
  listCampaigns,
} from '../../../repositories/campaigns.js';

/** E-mail campaigns to service owners (administrators only). docs/mail.md. */
export async function campaignRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  app.addHook('preHandler', app.requireAdmin);

  app.post(
    '/admin/campaigns/recipients',
    {
      schema: {
        tags,
        summary: 'How many addresses a campaign with these statuses and categories would reach',
        body: campaignInputSchema.pick({ statuses: true, categories: true }),
        response: { 200: z.object({ count: z.number().int() }) },
      },
    },
    async (request) => ({ count: await countRecipients(app.db, request.body) }),
  );

  app.post(
    '/admin/campaigns',
    {
      schema: {
        tags,
        summary: 'Create a campaign and queue its mails',
        description:
          'Recipients: the owners of services with one of the statuses and categories (empty: any) ' +
          'who have not unsubscribed, each address once; with sendToSelf only the administrator. ' +
          'Delivery runs in the background; read the progress with GET admin/campaigns/:id.',
        body: campaignInputSchema,
        response: { 201: campaignSchema },
      },
    },
    async (request, reply) => {
      const adminId = request.account!.id;
      const { row, recipients } = await app.db.transaction(async (tx) => {
        const created = await createCampaign(tx, {
          adminId,
          input: request.body,
          domain: app.mail.outbox.domain,
        });
        await audit(tx, adminId, 'campaign.send', 'campaign', created.row.id, {
          subject: request.body.subject,
          statuses: request.body.statuses,
          categories: request.body.categories,
          sendToSelf: request.body.sendToSelf,
          recipients: created.recipients,
        });
        return created;
      });
      app.mail.worker?.wake();
      return reply.code(201).send(campaignToApi(row, { queued: recipients, sent: 0, failed: 0 }));
    },
  );

  app.get(
    '/admin/campaigns',
    {
      schema: {
        tags,
        summary: 'Campaigns, newest first, with their delivery progress',
        querystring: z.strictObject({
          page: z.coerce.number().int().min(1).max(10_000).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: pageOf(campaignSchema) },
      },
    },
    async (request) => listCampaigns(app.db, request.query.page, request.query.pageSize),
  );

  app.get(
    '/admin/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'One campaign with its delivery progress (queued, sent, failed)',
        params: idParamsSchema,
        response: { 200: campaignSchema },
      },
    },
    async (request) => {
      const campaign = await findCampaign(app.db, request.params.id);
      if (!campaign) throw new PoruchError(404, 'resource_was_not_found');
      return campaign;
    },
  );
}
