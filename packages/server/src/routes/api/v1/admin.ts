import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq, ilike, isNull, ne, or, type SQL } from 'drizzle-orm';
import {
  LIMITS,
  PoruchError,
  accountSchema,
  adminCreateSchema,
  adminCreatedSchema,
  adminRoleSchema,
  adminServiceQuerySchema,
  adminServiceSchema,
  administratorListSchema,
  auditEntrySchema,
  auditQuerySchema,
  type AuditAction,
  declineSchema,
  idParamsSchema,
  pageOf,
  partnerFlagSchema,
} from '@poruch/core';
import { accounts, services } from '../../../db/schema.js';
import { generatePassword, hashPassword } from '../../../lib/passwords.js';
import {
  accountToApi,
  accountsRepository,
  isUniqueViolation,
} from '../../../repositories/accounts.js';
import { changeAdminRole, listAdministrators } from '../../../repositories/administrators.js';
import { auditPage, likeEscape } from '../../../repositories/audit.js';
import { audit, type Executor } from '../../../repositories/catalogue.js';
import { serviceToApi, type ServiceRow } from '../../../repositories/services.js';
import type { AccountRow } from '../../../repositories/sessions.js';
import { invalidateMap } from '../../../map/index.js';
import { confirmedNow } from '../../../reconfirm/index.js';
import { notifyServiceDecision } from '../../../mail/notifications.js';

/** A service as the administration sees it (list and review): with its owner's contacts. */
const adminService = (row: ServiceRow, owner: AccountRow | null) => ({
  ...serviceToApi(row),
  owner: owner
    ? {
        id: owner.id,
        email: owner.email,
        firstName: owner.firstName,
        lastName: owner.lastName,
        phone: owner.phone,
      }
    : null,
});

/** Administration: review, partner marks, administrators, audit log. */
export async function adminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  app.addHook('preHandler', app.requireAdmin);

  const withOwner = async (db: Executor, row: ServiceRow) =>
    adminService(
      row,
      row.ownerId ? await accountsRepository(db as never).findById(row.ownerId) : null,
    );

  app.get(
    '/admin/services',
    {
      schema: {
        tags,
        summary: 'Services of clients and partners, with filters and search (3+ characters)',
        querystring: adminServiceQuerySchema,
        response: { 200: pageOf(adminServiceSchema) },
      },
    },
    async (request) => {
      const { q, status, country, category, isPartner, stale, page, pageSize } = request.query;
      if (q !== undefined && q.length > 0 && q.length < LIMITS.adminSearchMin) {
        throw new PoruchError(400, 'admin_search_too_short', undefined, [
          { field: 'q', key: 'validation.min_length', params: { length: LIMITS.adminSearchMin } },
        ]);
      }
      const filters: (SQL | undefined)[] = [
        status ? eq(services.status, status) : undefined,
        country ? eq(services.countryCode, country) : undefined,
        category === 'empty'
          ? isNull(services.category)
          : category !== 'all'
            ? eq(services.category, category)
            : undefined,
        isPartner !== undefined ? eq(services.isPartner, isPartner) : undefined,
        // Left unconfirmed 30 days after the re-confirmation mail, or hidden for it.
        stale
          ? and(eq(services.status, 'approved'), ne(services.confirmation, 'current'))
          : undefined,
      ];
      if (q) {
        const like = `%${likeEscape(q)}%`;
        filters.push(
          or(
            ilike(services.name, like),
            ilike(services.address, like),
            ilike(services.phone, like),
            ilike(accounts.email, like),
            ilike(accounts.firstName, like),
            ilike(accounts.lastName, like),
          ),
        );
      }
      const where = and(...filters);
      const [rows, [total]] = await Promise.all([
        app.db
          .select({ service: services, owner: accounts })
          .from(services)
          .leftJoin(accounts, eq(accounts.id, services.ownerId))
          .where(where)
          .orderBy(desc(services.createdAt))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        app.db
          .select({ n: count() })
          .from(services)
          .leftJoin(accounts, eq(accounts.id, services.ownerId))
          .where(where),
      ]);
      return {
        items: rows.map(({ service, owner }) => adminService(service, owner)),
        total: total!.n,
        page,
        pageSize,
      };
    },
  );

  app.get(
    '/admin/services/:id',
    {
      schema: {
        tags,
        summary: 'One service for review',
        params: idParamsSchema,
        response: { 200: adminServiceSchema },
      },
    },
    async (request) => {
      const [row] = await app.db.select().from(services).where(eq(services.id, request.params.id));
      if (!row) throw new PoruchError(404, 'resource_was_not_found');
      return withOwner(app.db, row);
    },
  );

  /** Changes a service in a transaction with its audit row. */
  const change = async (
    id: string,
    actorId: string,
    action: AuditAction,
    values: Partial<ServiceRow>,
    details = {},
  ) => {
    const result = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .update(services)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(services.id, id))
        .returning();
      if (!row) throw new PoruchError(404, 'resource_was_not_found');
      await audit(tx, actorId, action, 'service', id, details);
      if (action === 'service.approve' || action === 'service.decline') {
        await notifyServiceDecision(app, tx, row);
      }
      return withOwner(tx, row);
    });
    app.mail.worker?.wake();
    // Approval puts a service on the map; a decline takes it off.
    await invalidateMap(app, { id });
    return result;
  };

  app.post(
    '/admin/services/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve a service',
        params: idParamsSchema,
        response: { 200: adminServiceSchema },
      },
    },
    async (request) =>
      change(request.params.id, request.account!.id, 'service.approve', {
        status: 'approved',
        declineReason: null,
        // When it became new for alert digests (src/alerts/digest.ts).
        approvedAt: app.now(),
        // An approval is a confirmation: a new yearly cycle (docs/product.md § Re-confirmation).
        ...confirmedNow(app.now()),
      }),
  );

  app.post(
    '/admin/services/:id/decline',
    {
      schema: {
        tags,
        summary: 'Decline a service with a reason shown to the owner',
        params: idParamsSchema,
        body: declineSchema,
        response: { 200: adminServiceSchema },
      },
    },
    async (request) =>
      change(
        request.params.id,
        request.account!.id,
        'service.decline',
        { status: 'declined', declineReason: request.body.reason },
        { reason: request.body.reason },
      ),
  );

  app.put(
    '/admin/services/:id/partner',
    {
      schema: {
        tags,
        summary: 'Mark or unmark a service as partner',
        params: idParamsSchema,
        body: partnerFlagSchema,
        response: { 200: adminServiceSchema },
      },
    },
    async (request) =>
      change(
        request.params.id,
        request.account!.id,
        request.body.isPartner ? 'service.partner_mark' : 'service.partner_unmark',
        { isPartner: request.body.isPartner },
      ),
  );

  app.post(
    '/admin/administrators',
    {
      preHandler: app.requireSuperAdmin,
      schema: {
        tags,
        summary: 'Add an administrator (super administrators only); the password is shown once',
        body: adminCreateSchema,
        response: { 201: adminCreatedSchema },
      },
    },
    async (request, reply) => {
      const password = generatePassword(20);
      const passwordHash = await hashPassword(password);
      try {
        const account = await app.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(accounts)
            .values({
              email: request.body.email,
              firstName: request.body.firstName,
              isSuper: request.body.isSuper,
              type: 'ADMIN',
              passwordHash,
            })
            .returning();
          await audit(tx, request.account!.id, 'admin.create', 'account', row!.id, {
            isSuper: request.body.isSuper,
          });
          return row!;
        });
        return reply.code(201).send({ account: accountToApi(account), password });
      } catch (error) {
        if (isUniqueViolation(error)) throw new PoruchError(409, 'email_is_used');
        throw error;
      }
    },
  );

  app.get(
    '/admin/administrators',
    {
      preHandler: app.requireSuperAdmin,
      schema: {
        tags,
        summary: 'Every administrator, super administrators first (super administrators only)',
        response: { 200: administratorListSchema },
      },
    },
    async () => ({ items: await listAdministrators(app.db) }),
  );

  app.put(
    '/admin/administrators/:id/role',
    {
      preHandler: app.requireSuperAdmin,
      schema: {
        tags,
        summary: 'Make an administrator a super administrator, a plain one, or no administrator',
        description:
          'Super administrators only; audited. `none` makes the account an ordinary partner ' +
          'account at once (its next request has no admin rights). The last super administrator ' +
          'is never demoted or removed: 409 `last_super_admin`, also under concurrent requests. ' +
          'An account that is not an administrator is 404.',
        params: idParamsSchema,
        body: adminRoleSchema,
        response: { 200: accountSchema },
      },
    },
    async (request) =>
      accountToApi(
        await changeAdminRole(app.db, request.account!.id, request.params.id, request.body.role),
      ),
  );

  app.get(
    '/admin/audit',
    {
      schema: {
        tags,
        summary: 'Audit log of admin actions: who, what, on what, when; filtered and paged',
        description:
          "`action` and `targetType` pick one kind; `actor` matches part of the actor's e-mail " +
          "(or the actor's id), `target` part of the target's name or e-mail (or its id); " +
          '`from` (inclusive) and `to` (exclusive) are instants with an offset. Newest first.',
        querystring: auditQuerySchema,
        response: { 200: pageOf(auditEntrySchema) },
      },
    },
    async (request) => auditPage(app.db, request.query),
  );
}
