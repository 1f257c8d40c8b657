import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  PoruchError,
  idParamsSchema,
  reportInputSchema,
  reportListQuerySchema,
  reportPageSchema,
  reportSchema,
  type Report,
} from '@poruch/core';
import { reports, services } from '../../../db/schema.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';
import { audit } from '../../../repositories/catalogue.js';
import { notifyNewReport } from '../../../mail/notifications.js';
import { publiclyVisible } from '../../../search/visibility.js';

type ReportRow = typeof reports.$inferSelect;

const reportToApi = (row: ReportRow, service: { id: string; name: string } | null): Report => ({
  id: row.id,
  reason: row.reason,
  description: row.description,
  status: row.status,
  service,
  createdAt: row.createdAt.toISOString(),
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
});

/**
 * A browser on a real page always sends Origin on a cross-site POST; a missing or opaque
 * ("null") origin means a script or a sandboxed frame, which may not post anonymously.
 */
export function requireRealOrigin(request: FastifyRequest) {
  const origin = request.headers.origin;
  if (origin !== undefined && !/^https?:\/\/[^/]+$/i.test(origin)) {
    throw new PoruchError(403, 'forbidden', 'origin');
  }
}

/** Reports: anyone files one anonymously; administrators list and resolve them. */
export async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];

  app.post(
    '/reports',
    {
      config: { public: true, csrf: false },
      preHandler: [
        async (request) => requireRealOrigin(request),
        rateLimit(app.rateLimitStore, [
          { name: 'report-ip', max: 10, windowMs: 60 * 60_000, key: byIp },
        ]),
      ],
      schema: {
        tags,
        summary: 'Report a service (anonymous)',
        body: reportInputSchema,
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const { serviceId, reason, description } = request.body;
      // Not an id at all: no such service (the database would refuse it as a uuid; fuzz test).
      if (!z.uuid().safeParse(serviceId).success) {
        throw new PoruchError(404, 'resource_was_not_found');
      }
      const [service] = await app.db
        .select({ id: services.id, name: services.name })
        .from(services)
        .where(and(eq(services.id, serviceId), publiclyVisible()))
        .limit(1);
      if (!service) throw new PoruchError(404, 'resource_was_not_found');
      // The report and the notices to administrators commit together.
      const row = await app.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(reports)
          // A logged-in reporter is linked (their export lists it); visitors stay anonymous.
          .values({ serviceId, reason, description, reporterId: request.account?.id ?? null })
          .returning({ id: reports.id });
        await notifyNewReport(app, tx, { id: inserted!.id, reason, description }, service.name);
        return inserted!;
      });
      app.mail.worker?.wake();
      return reply.code(201).send({ id: row.id });
    },
  );

  app.get(
    '/admin/reports',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags,
        summary: 'Reports by status',
        querystring: reportListQuerySchema,
        response: { 200: reportPageSchema },
      },
    },
    async (request) => {
      const { status, page, pageSize } = request.query;
      const where = status ? eq(reports.status, status) : undefined;
      const [rows, [total]] = await Promise.all([
        app.db
          .select({ report: reports, service: { id: services.id, name: services.name } })
          .from(reports)
          .leftJoin(services, eq(services.id, reports.serviceId))
          .where(where)
          .orderBy(desc(reports.createdAt))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        app.db.select({ n: count() }).from(reports).where(where),
      ]);
      return {
        items: rows.map((r) =>
          reportToApi(r.report, r.service?.id ? { id: r.service.id, name: r.service.name } : null),
        ),
        total: total!.n,
        page,
        pageSize,
      };
    },
  );

  app.post(
    '/admin/reports/:id/resolve',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags,
        summary: 'Resolve a report (new becomes resolved)',
        params: idParamsSchema,
        response: { 200: reportSchema },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const [row] = await tx
          .update(reports)
          .set({ status: 'resolved', resolvedAt: new Date(), resolvedBy: request.account!.id })
          .where(and(eq(reports.id, request.params.id), eq(reports.status, 'new')))
          .returning();
        if (!row) throw new PoruchError(404, 'resource_was_not_found');
        await audit(tx, request.account!.id, 'report.resolve', 'report', row.id);
        const [service] = row.serviceId
          ? await tx
              .select({ id: services.id, name: services.name })
              .from(services)
              .where(eq(services.id, row.serviceId))
          : [];
        return reportToApi(row, service ?? null);
      }),
  );
}
