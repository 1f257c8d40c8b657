import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  PoruchError,
  idParamsSchema,
  requireAddressConfirmation,
  serviceInputSchema,
  serviceSchema,
  showOnMapSchema,
  vacancyInputSchema,
  vacancyOpenSchema,
  vacancySchema,
} from '@poruch/core';
import { services, vacancies } from '../../../db/schema.js';
import {
  findOwnedService,
  syncHaveVacancy,
  vacancyToApi,
  type Executor,
} from '../../../repositories/catalogue.js';
import { serviceInputToRow, serviceToApi } from '../../../repositories/services.js';
import { invalidateMap } from '../../../map/index.js';
import { confirmedNow } from '../../../reconfirm/index.js';
import { recordDuplicateAnswers } from '../../../duplicates/index.js';

const statusSchema = z.object({ status: z.boolean() });
const serviceBody = requireAddressConfirmation(serviceInputSchema);

/**
 * A partner's own services and vacancies. Every route checks the session and the ownership;
 * anything else answers 404, so a partner cannot even learn that another partner's id exists.
 */
export async function myRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['my services'];
  const ownerId = (request: FastifyRequest) => request.account!.id;

  const owned = async (db: Executor, serviceId: string, request: FastifyRequest) => {
    const row = await findOwnedService(db, serviceId, ownerId(request));
    if (!row) throw new PoruchError(404, 'resource_was_not_found');
    return row;
  };

  /**
   * The row an UPDATE … RETURNING gave. None when the row was deleted between the ownership check
   * and the update (a second request of the partner's): 404, as if it had never been found.
   */
  const stillThere = <T>(row: T | undefined): T => {
    if (!row) throw new PoruchError(404, 'resource_was_not_found');
    return row;
  };

  /** The vacancy and its service, when the service is the account's. */
  const ownedVacancy = async (db: Executor, vacancyId: string, request: FastifyRequest) => {
    const [row] = await db
      .select({ vacancy: vacancies })
      .from(vacancies)
      .innerJoin(services, eq(services.id, vacancies.serviceId))
      .where(and(eq(vacancies.id, vacancyId), eq(services.ownerId, ownerId(request))))
      .limit(1);
    if (!row) throw new PoruchError(404, 'resource_was_not_found');
    return row.vacancy;
  };

  /** Changes the account's vacancy and keeps its service's have-vacancy flag in step. */
  const updateVacancy = (
    request: FastifyRequest,
    id: string,
    values: Partial<typeof vacancies.$inferInsert>,
  ) =>
    app.db.transaction(async (tx) => {
      const vacancy = await ownedVacancy(tx, id, request);
      const [row] = await tx
        .update(vacancies)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(vacancies.id, vacancy.id))
        .returning();
      const changed = stillThere(row);
      await syncHaveVacancy(tx, vacancy.serviceId);
      return vacancyToApi(changed);
    });

  app.addHook('preHandler', app.requireAccount);

  app.get(
    '/my/services',
    {
      schema: {
        tags,
        summary: 'My services, with status and decline reason',
        response: { 200: z.array(serviceSchema) },
      },
    },
    async (request) => {
      const rows = await app.db
        .select()
        .from(services)
        .where(eq(services.ownerId, ownerId(request)))
        .orderBy(desc(services.createdAt));
      return rows.map(serviceToApi);
    },
  );

  app.post(
    '/my/services',
    {
      schema: {
        tags,
        summary: 'Add a service (starts pending)',
        body: serviceBody,
        response: { 201: serviceSchema },
      },
    },
    async (request, reply) => {
      const row = await app.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(services)
          .values({
            ...serviceInputToRow(request.body),
            ownerId: ownerId(request),
            status: 'pending',
          })
          .returning();
        await recordDuplicateAnswers(tx, created!.id, request.body.duplicates);
        return created!;
      });
      return reply.code(201).send(serviceToApi(row));
    },
  );

  app.put(
    '/my/services/:id',
    {
      schema: {
        tags,
        summary: 'Edit a service (it goes back to pending for re-review)',
        params: idParamsSchema,
        body: serviceBody,
        response: { 200: serviceSchema },
      },
    },
    async (request) => {
      const before = await owned(app.db, request.params.id, request);
      const [row] = await app.db
        .update(services)
        .set({
          ...serviceInputToRow(request.body),
          status: 'pending',
          declineReason: null,
          // The owner's edit confirms the service: a new yearly cycle.
          ...confirmedNow(app.now()),
          updatedAt: new Date(),
        })
        .where(eq(services.id, request.params.id))
        .returning();
      const changed = stillThere(row);
      // Back to pending: it leaves the map until approved again (a pending one changes nothing).
      await invalidateMap(app, { id: changed.id, before });
      return serviceToApi(changed);
    },
  );

  app.delete(
    '/my/services/:id',
    {
      schema: {
        tags,
        summary: 'Delete a service and its vacancies',
        params: idParamsSchema,
        response: { 200: statusSchema },
      },
    },
    async (request) => {
      const before = await owned(app.db, request.params.id, request);
      await app.db.delete(services).where(eq(services.id, request.params.id));
      await invalidateMap(app, { id: before.id, before });
      return { status: true };
    },
  );

  app.put(
    '/my/services/:id/map',
    {
      schema: {
        tags,
        summary: 'Show the service on the map or hide it',
        params: idParamsSchema,
        body: showOnMapSchema,
        response: { 200: serviceSchema },
      },
    },
    async (request) => {
      const before = await owned(app.db, request.params.id, request);
      const [row] = await app.db
        .update(services)
        .set({ showOnMap: request.body.showOnMap, updatedAt: new Date() })
        .where(eq(services.id, request.params.id))
        .returning();
      const changed = stillThere(row);
      await invalidateMap(app, { id: changed.id, before });
      return serviceToApi(changed);
    },
  );

  app.get(
    '/my/services/:id/vacancies',
    {
      schema: {
        tags,
        summary: 'Vacancies of my service, open and closed',
        params: idParamsSchema,
        response: { 200: z.array(vacancySchema) },
      },
    },
    async (request) => {
      await owned(app.db, request.params.id, request);
      const rows = await app.db
        .select()
        .from(vacancies)
        .where(eq(vacancies.serviceId, request.params.id))
        .orderBy(desc(vacancies.createdAt));
      return rows.map(vacancyToApi);
    },
  );

  app.post(
    '/my/services/:id/vacancies',
    {
      schema: {
        tags,
        summary: 'Add a vacancy to my service',
        params: idParamsSchema,
        body: vacancyInputSchema,
        response: { 201: vacancySchema },
      },
    },
    async (request, reply) => {
      const row = await app.db.transaction(async (tx) => {
        await owned(tx, request.params.id, request);
        const [created] = await tx
          .insert(vacancies)
          .values({ ...request.body, serviceId: request.params.id })
          .returning();
        await syncHaveVacancy(tx, request.params.id);
        return created!;
      });
      return reply.code(201).send(vacancyToApi(row));
    },
  );

  app.put(
    '/my/vacancies/:id',
    {
      schema: {
        tags,
        summary: 'Edit my vacancy',
        params: idParamsSchema,
        body: vacancyInputSchema,
        response: { 200: vacancySchema },
      },
    },
    async (request) => updateVacancy(request, request.params.id, request.body),
  );

  app.put(
    '/my/vacancies/:id/open',
    {
      schema: {
        tags,
        summary: 'Open or close my vacancy',
        params: idParamsSchema,
        body: vacancyOpenSchema,
        response: { 200: vacancySchema },
      },
    },
    async (request) => updateVacancy(request, request.params.id, { isOpen: request.body.isOpen }),
  );

  app.delete(
    '/my/vacancies/:id',
    {
      schema: {
        tags,
        summary: 'Delete my vacancy',
        params: idParamsSchema,
        response: { 200: statusSchema },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const vacancy = await ownedVacancy(tx, request.params.id, request);
        await tx.delete(vacancies).where(eq(vacancies.id, vacancy.id));
        await syncHaveVacancy(tx, vacancy.serviceId);
        return { status: true };
      }),
  );
}
