import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  ALERT_LIMITS,
  PoruchError,
  VALIDATION_KEYS,
  alertConfirmResultSchema,
  alertFilterLines,
  alertListSchema,
  alertSchema,
  alertTokenSchema,
  alertUpdateSchema,
  alertViewSchema,
  createI18n,
  idParamsSchema,
  serviceAlertFiltersSchema,
  text,
  translator,
  vacancyAlertFiltersSchema,
  type AlertFilters,
  type AlertKind,
  type AlertView,
  type LocaleCode,
  type Translate,
} from '@poruch/core';
import type { Env } from '../../../env.js';
import { alertSubscriptions } from '../../../db/schema.js';
import type { Executor } from '../../../repositories/catalogue.js';
import { byBodyEmail, byIp, rateLimit } from '../../../lib/rate-limiter.js';
import {
  CONFIRM_TOKEN_DAYS,
  alertConfirmUrl,
  alertManageToken,
  alertManageUrl,
  verifyAlertConfirmToken,
  verifyAlertManageToken,
  verifyAlertUnsubscribeToken,
} from '../../../alerts/links.js';
import {
  addAlertPush,
  alertDeviceCounts,
  confirmAlertPushes,
  removeAlertPushes,
} from '../../../alerts/push.js';
import { isAllowedPushEndpoint } from '../../../mail/push.js';
import { oneClickBodyParsers } from './unsubscribe.js';
import { requireRealOrigin } from './reports.js';

type SubscriptionRow = typeof alertSubscriptions.$inferSelect;

const DAY_MS = 24 * 60 * 60_000;
const FILTERS: Record<AlertKind, z.ZodType<AlertFilters>> = {
  services: serviceAlertFiltersSchema,
  vacancies: vacancyAlertFiltersSchema,
};

const toView = (row: SubscriptionRow, devices: Map<string, number>): AlertView => ({
  id: row.id,
  kind: row.kind,
  filters: row.filters,
  frequency: row.frequency,
  confirmed: row.confirmedAt !== null,
  devices: devices.get(row.id) ?? 0,
  createdAt: row.createdAt.toISOString(),
});

const translators = new Map<LocaleCode, Translate>();
const translatorOf = (locale: LocaleCode) => {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = translator(createI18n(locale))));
  return t;
};

/** A refused link: 400 with the reason in `error.message` (the site translates it). */
const badLink = (detail: 'alert_link_invalid' | 'alert_link_expired') =>
  new PoruchError(400, 'bad_request', detail);

export interface AlertRoutesOptions {
  env: Env;
  /** The clock (tests set it). */
  now?: () => Date;
}

/**
 * Area alerts, the subscribing side (docs/product.md § Alerts): anyone subscribes an address to
 * new results of a search (double opt-in), confirms by the mailed link, and manages the alerts
 * of the address by its signed manage link. No session, no cookie, no anti-forgery token: every
 * call is authorised by a signed token, and `POST alerts` answers the same whatever the address.
 */
export async function alertRoutes(
  fastify: FastifyInstance,
  { env, now = () => new Date() }: AlertRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['alerts'];
  const secret = () => app.mail.unsubscribeSecret;
  const tokenLimit = rateLimit(app.rateLimitStore, [
    { name: 'alert-token-ip', max: 120, windowMs: 60 * 60_000, key: byIp },
  ]);

  /** The address a manage token stands for; a forged one is refused. */
  const addressOf = (token: string) => {
    const email = verifyAlertManageToken(secret(), token);
    if (!email) throw badLink('alert_link_invalid');
    return email;
  };

  /** Queues the confirmation mail of a subscription. */
  const mailConfirmation = async (tx: Executor, row: SubscriptionRow, at: Date) => {
    const recipient = { id: row.id, email: row.email, locale: row.locale };
    await app.mail.outbox.enqueue(tx, {
      to: row.email,
      template: 'alertConfirm',
      locale: row.locale,
      key: `alertConfirm:${row.id}:${at.getTime()}`,
      params: {
        kind: row.kind,
        filters: alertFilterLines(row, translatorOf(row.locale)),
        confirmUrl: alertConfirmUrl(env.PUBLIC_URL, secret(), recipient, at),
        manageUrl: alertManageUrl(env.PUBLIC_URL, secret(), recipient),
        days: CONFIRM_TOKEN_DAYS,
      },
    });
  };

  app.post(
    '/alerts',
    {
      config: { public: true, csrf: false },
      preHandler: [
        async (request) => requireRealOrigin(request),
        rateLimit(app.rateLimitStore, [
          { name: 'alert-ip', max: env.RATE_ALERT_PER_IP, windowMs: 60 * 60_000, key: byIp },
          {
            name: 'alert-email',
            max: env.RATE_ALERT_PER_EMAIL,
            windowMs: 60 * 60_000,
            key: byBodyEmail,
          },
        ]),
      ],
      schema: {
        tags,
        summary: 'Subscribe an address to new results of a search (double opt-in)',
        description:
          'Always 202 with the same body, whether or not the address is known or already ' +
          'subscribed: a confirmation mail goes to the address, and nothing else is mailed ' +
          'before its link is opened. An address holds at most ' +
          `${ALERT_LIMITS.perAddress} alerts; the same search again re-sends the confirmation.`,
        body: alertSchema,
        response: { 202: z.object({ status: z.literal('pending') }) },
      },
    },
    async (request, reply) => {
      const { email, locale, frequency, kind, filters, push } = request.body;
      // Only real push services: the server POSTs to this URL later (docs/security.md).
      if (push && !isAllowedPushEndpoint(push.endpoint, app.mail.allowPrivatePush)) {
        throw new PoruchError(400, 'validation_failed', undefined, [
          { field: 'push.endpoint', key: VALIDATION_KEYS.pushEndpoint },
        ]);
      }
      const at = now();
      await app.db.transaction(async (tx) => {
        // One address at a time, so two requests together cannot pass the cap.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`alerts:${email}`}))`);
        // Never confirmed within the link's days: the link is dead, the row goes.
        await tx
          .delete(alertSubscriptions)
          .where(
            and(
              eq(alertSubscriptions.email, email),
              isNull(alertSubscriptions.confirmedAt),
              lt(
                alertSubscriptions.createdAt,
                new Date(at.getTime() - CONFIRM_TOKEN_DAYS * DAY_MS),
              ),
            ),
          );
        const [same] = await tx
          .select()
          .from(alertSubscriptions)
          .where(
            and(
              eq(alertSubscriptions.email, email),
              eq(alertSubscriptions.kind, kind),
              sql`${alertSubscriptions.filters} = ${JSON.stringify(filters)}::jsonb`,
            ),
          )
          .limit(1);
        if (same) {
          // Unconfirmed: the new choice replaces the old one. Confirmed: nothing changes
          // without the owner's link; the mail still goes, with the manage link in it.
          const row = same.confirmedAt
            ? same
            : ((
                await tx
                  .update(alertSubscriptions)
                  .set({ frequency, locale, updatedAt: at })
                  .where(eq(alertSubscriptions.id, same.id))
                  .returning()
              )[0] ?? same);
          // A device waits for the confirmation link mailed now, even on a confirmed alert.
          if (push) await addAlertPush(tx, row.id, push, at);
          await mailConfirmation(tx, row, at);
          return;
        }
        const [held] = await tx
          .select({ n: count() })
          .from(alertSubscriptions)
          .where(eq(alertSubscriptions.email, email));
        if (held!.n >= ALERT_LIMITS.perAddress) {
          request.log.info('alert refused: the address holds the most alerts');
          return;
        }
        const [row] = await tx
          .insert(alertSubscriptions)
          .values({ email, locale, kind, filters, frequency, createdAt: at, updatedAt: at })
          .returning();
        if (push) await addAlertPush(tx, row!.id, push, at);
        await mailConfirmation(tx, row!, at);
      });
      app.mail.worker?.wake();
      return reply.code(202).send({ status: 'pending' as const });
    },
  );

  app.post(
    '/alerts/confirm',
    {
      config: { public: true, csrf: false },
      preHandler: tokenLimit,
      schema: {
        tags,
        summary: 'Confirm a subscription by the token of its confirmation mail',
        description:
          '400 `bad_request` with `error.message` `alert_link_expired` (older than ' +
          `${CONFIRM_TOKEN_DAYS} days) or \`alert_link_invalid\`; 404 when the alert was deleted.`,
        body: alertTokenSchema,
        response: { 200: alertConfirmResultSchema },
      },
    },
    async (request) => {
      const at = now();
      const found = verifyAlertConfirmToken(secret(), request.body.token, at);
      if (found === 'expired') throw badLink('alert_link_expired');
      if (!found) throw badLink('alert_link_invalid');
      const row = await app.db.transaction(async (tx) => {
        const [confirmed] = await tx
          .update(alertSubscriptions)
          .set({
            confirmedAt: sql`coalesce(${alertSubscriptions.confirmedAt}, ${at.toISOString()}::timestamptz)`,
            lastDigestAt: sql`coalesce(${alertSubscriptions.lastDigestAt}, ${at.toISOString()}::timestamptz)`,
            updatedAt: at,
          })
          .where(eq(alertSubscriptions.id, found.id))
          .returning();
        if (confirmed) await confirmAlertPushes(tx, confirmed.id, found.mailedAt, at);
        return confirmed;
      });
      if (!row) throw new PoruchError(404, 'resource_was_not_found', 'alert_gone');
      request.log.info({ alert: row.id }, 'alert confirmed');
      return {
        status: 'confirmed' as const,
        locale: row.locale,
        manageToken: alertManageToken(secret(), row.email),
      };
    },
  );

  // The manage page's calls: the token of the address in the body (never in a URL or a log).
  const list = async (email: string) => {
    const rows = await app.db
      .select()
      .from(alertSubscriptions)
      .where(eq(alertSubscriptions.email, email))
      .orderBy(desc(alertSubscriptions.createdAt), alertSubscriptions.id);
    const locale = rows[0]?.locale ?? 'ua';
    const devices = await alertDeviceCounts(
      app.db,
      rows.map((r) => r.id),
    );
    return { email, locale, alerts: rows.map((r) => toView(r, devices)) };
  };

  app.post(
    '/alerts/manage',
    {
      config: { public: true, csrf: false },
      preHandler: tokenLimit,
      schema: {
        tags,
        summary: "The alerts of the manage token's address, newest first",
        body: alertTokenSchema,
        response: { 200: alertListSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return list(addressOf(request.body.token));
    },
  );

  app.put(
    '/alerts/manage/:id',
    {
      config: { public: true, csrf: false },
      preHandler: tokenLimit,
      schema: {
        tags,
        summary: 'Change the frequency or the filters of one alert of the address',
        params: idParamsSchema,
        body: alertUpdateSchema.extend(alertTokenSchema.shape),
        response: { 200: alertViewSchema },
      },
    },
    async (request) => {
      const email = addressOf(request.body.token);
      const { frequency, filters } = request.body;
      return app.db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(alertSubscriptions)
          .where(
            and(eq(alertSubscriptions.id, request.params.id), eq(alertSubscriptions.email, email)),
          )
          .for('update');
        if (!row) throw new PoruchError(404, 'resource_was_not_found');
        // The filters of the alert's own kind (a vacancy's experience is no service filter).
        const parsed = filters
          ? z.strictObject({ filters: FILTERS[row.kind] }).parse({ filters }).filters
          : row.filters;
        const [updated] = await tx
          .update(alertSubscriptions)
          .set({ frequency, filters: parsed, updatedAt: now() })
          .where(eq(alertSubscriptions.id, row.id))
          .returning();
        return toView(updated!, await alertDeviceCounts(tx, [row.id]));
      });
    },
  );

  app.delete(
    '/alerts/manage/:id/push',
    {
      config: { public: true, csrf: false },
      preHandler: tokenLimit,
      schema: {
        tags,
        summary: 'Turn off the pushes of one alert of the address on every device',
        description: 'The mails go on; the alert is sent to a device again only from the app.',
        params: idParamsSchema,
        body: alertTokenSchema,
        response: { 200: alertViewSchema },
      },
    },
    async (request) => {
      const email = addressOf(request.body.token);
      const [row] = await app.db
        .select()
        .from(alertSubscriptions)
        .where(
          and(eq(alertSubscriptions.id, request.params.id), eq(alertSubscriptions.email, email)),
        );
      if (!row) throw new PoruchError(404, 'resource_was_not_found');
      await removeAlertPushes(app.db, row.id);
      return toView(row, new Map());
    },
  );

  app.delete(
    '/alerts/manage/:id',
    {
      config: { public: true, csrf: false },
      preHandler: tokenLimit,
      schema: {
        tags,
        summary: 'Delete one alert of the address',
        params: idParamsSchema,
        body: alertTokenSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const email = addressOf(request.body.token);
      const deleted = await app.db
        .delete(alertSubscriptions)
        .where(
          and(eq(alertSubscriptions.id, request.params.id), eq(alertSubscriptions.email, email)),
        )
        .returning({ id: alertSubscriptions.id });
      if (!deleted.length) throw new PoruchError(404, 'resource_was_not_found');
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/alerts/manage',
    {
      config: { public: true, csrf: false },
      preHandler: tokenLimit,
      schema: {
        tags,
        summary: 'Delete every alert of the address',
        body: alertTokenSchema,
        response: { 200: z.object({ deleted: z.number().int() }) },
      },
    },
    async (request) => {
      const email = addressOf(request.body.token);
      const deleted = await app.db
        .delete(alertSubscriptions)
        .where(eq(alertSubscriptions.email, email))
        .returning({ id: alertSubscriptions.id });
      return { deleted: deleted.length };
    },
  );

  // RFC 8058 one-click: the List-Unsubscribe URL of every alert mail. The body a mail client
  // sends (List-Unsubscribe=One-Click) is read as campaign unsubscribes read it.
  await app.register(async (oneClick) => {
    oneClickBodyParsers(oneClick);
    oneClick.withTypeProvider<ZodTypeProvider>().post(
      '/alerts/unsubscribe',
      {
        config: { public: true, csrf: false },
        preValidation: async (request) => {
          request.body ??= {};
        },
        preHandler: tokenLimit,
        schema: {
          tags,
          summary: 'Delete one alert by the List-Unsubscribe link of its mails (RFC 8058)',
          querystring: alertTokenSchema,
          body: z.object({ 'List-Unsubscribe': text().optional() }).optional(),
          response: { 200: z.object({ status: z.literal(true) }) },
        },
      },
      async (request) => {
        const id = verifyAlertUnsubscribeToken(secret(), request.query.token);
        if (!id) throw badLink('alert_link_invalid');
        // Idempotent: a second click (or a deleted alert) answers the same.
        await app.db.delete(alertSubscriptions).where(eq(alertSubscriptions.id, id));
        request.log.info('alert unsubscribed (one-click)');
        return { status: true as const };
      },
    );
  });
}
