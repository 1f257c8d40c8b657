import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { aliasedTable, and, asc, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  PoruchError,
  claimListQuerySchema,
  claimListSchema,
  claimParamsSchema,
  duplicateCandidatesSchema,
  duplicateQuerySchema,
  idParamsSchema,
  reviewDuplicatesSchema,
} from '@poruch/core';
import { accounts, duplicateAnswers, services } from '../../../db/schema.js';
import { claimRecord, findDuplicates, reviewDuplicates } from '../../../duplicates/index.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';
import { audit } from '../../../repositories/catalogue.js';

/** Checks a partner may run per IP per minute while filling in the service form. */
const CHECKS_PER_MINUTE = 30;

/**
 * Duplicate detection (docs/product.md § Duplicates): the check while a service is added (anyone:
 * registration runs it before an account exists), the review's "Possible duplicates", and the
 * administrators' claims ("This is mine").
 */
export async function duplicateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/services/duplicates',
    {
      preHandler: rateLimit(app.rateLimitStore, [
        { name: 'duplicates-ip', max: CHECKS_PER_MINUTE, windowMs: 60_000, key: byIp },
      ]),
      schema: {
        tags: ['services'],
        summary: 'Approved services that look like the one being added',
        description:
          'Within 200 m with a similar name (also across Cyrillic and Latin), or the same phone ' +
          'or website anywhere. Only public fields of publicly visible services.',
        body: duplicateQuerySchema,
        response: { 200: duplicateCandidatesSchema },
      },
    },
    async (request) => ({ candidates: await findDuplicates(app.db, request.body) }),
  );

  app.get(
    '/admin/services/:id/duplicates',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "A service's possible duplicates, with what its owner said about each",
        params: idParamsSchema,
        response: { 200: reviewDuplicatesSchema },
      },
    },
    async (request) => {
      const [row] = await app.db.select().from(services).where(eq(services.id, request.params.id));
      if (!row) throw new PoruchError(404, 'resource_was_not_found');
      return { candidates: await reviewDuplicates(app.db, row) };
    },
  );

  const submitted = aliasedTable(services, 'submitted');
  const claimed = aliasedTable(services, 'claimed');

  app.get(
    '/admin/claims',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Open ownership claims, each submission beside the listed service, oldest first',
        description: 'Paged as the other admin lists: `page` from 1, `pageSize` at most 100.',
        querystring: claimListQuerySchema,
        response: { 200: claimListSchema },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const open = eq(duplicateAnswers.claimStatus, 'open');
      const [rows, [total]] = await Promise.all([
        app.db
          .select({
            answer: duplicateAnswers,
            submitted,
            claimed,
            claimant: { id: accounts.id, email: accounts.email },
          })
          .from(duplicateAnswers)
          .innerJoin(submitted, eq(submitted.id, duplicateAnswers.serviceId))
          .innerJoin(claimed, eq(claimed.id, duplicateAnswers.candidateId))
          .leftJoin(accounts, eq(accounts.id, submitted.ownerId))
          .where(open)
          .orderBy(
            asc(duplicateAnswers.createdAt),
            asc(duplicateAnswers.serviceId),
            asc(duplicateAnswers.candidateId),
          )
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        app.db.select({ n: count() }).from(duplicateAnswers).where(open),
      ]);
      return {
        items: rows.map((r) => ({
          status: r.answer.claimStatus ?? 'open',
          submitted: claimRecord(r.submitted),
          claimed: claimRecord(r.claimed),
          claimant: r.claimant,
          createdAt: r.answer.createdAt.toISOString(),
        })),
        total: total!.n,
        page,
        pageSize,
      };
    },
  );

  /** Resolves an open claim in one transaction with its audit row; 404 when none is open. */
  const resolve = (
    request: {
      params: { serviceId: string; candidateId: string };
      account?: { id: string } | null;
    },
    approve: boolean,
  ) =>
    app.db.transaction(async (tx) => {
      const { serviceId, candidateId } = request.params;
      const actorId = request.account!.id;
      const [claim] = await tx
        .update(duplicateAnswers)
        .set({
          claimStatus: approve ? 'approved' : 'declined',
          resolvedBy: actorId,
          resolvedAt: new Date(),
        })
        .where(
          and(
            eq(duplicateAnswers.serviceId, serviceId),
            eq(duplicateAnswers.candidateId, candidateId),
            eq(duplicateAnswers.claimStatus, 'open'),
          ),
        )
        .returning();
      if (!claim) throw new PoruchError(404, 'resource_was_not_found');
      const [submission] = await tx.select().from(services).where(eq(services.id, serviceId));
      if (!submission) throw new PoruchError(404, 'resource_was_not_found');
      const details = {
        submittedId: serviceId,
        submittedName: submission.name,
        claimantId: submission.ownerId,
      };
      if (approve) {
        // The listed service becomes the claimant's; their submission was only the claim.
        await tx
          .update(services)
          .set({ ownerId: submission.ownerId, updatedAt: new Date() })
          .where(eq(services.id, candidateId));
        await tx.delete(services).where(eq(services.id, serviceId));
      }
      await audit(
        tx,
        actorId,
        approve ? 'service.claim_approve' : 'service.claim_decline',
        'service',
        candidateId,
        details,
      );
      return { status: true };
    });

  for (const [verb, approve] of [
    ['approve', true],
    ['decline', false],
  ] as const) {
    app.post(
      `/admin/claims/:serviceId/:candidateId/${verb}`,
      {
        preHandler: app.requireAdmin,
        schema: {
          tags: ['admin'],
          summary: approve
            ? 'Approve a claim: the listed service becomes the claimant’s, the submission is removed'
            : 'Decline a claim: the submission stays pending for review',
          params: claimParamsSchema,
          response: { 200: z.object({ status: z.boolean() }) },
        },
      },
      // Only a pending submission is removed: nothing public (search, map, profiles) changes.
      async (request) => resolve(request, approve),
    );
  }
}
