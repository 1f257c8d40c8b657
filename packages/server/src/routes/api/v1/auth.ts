import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PoruchError,
  VALIDATION_KEYS,
  accountSchema,
  authCheckSchema,
  credentialsChangeSchema,
  credentialsSchema,
  personalDataUpdateSchema,
  pushSubscriptionSchema,
  registrationResultSchema,
  registrationSchema,
  resetPasswordSchema,
  type ErrorKey,
} from '@poruch/core';
import { accounts, pushSubscriptions, services } from '../../../db/schema.js';
import type { Env } from '../../../env.js';
import {
  generatePassword,
  hashPassword,
  verifyLogin,
  verifyPassword,
} from '../../../lib/passwords.js';
import {
  accountToApi,
  accountsRepository,
  isUniqueViolation,
} from '../../../repositories/accounts.js';
import { serviceInputToRow, serviceToApi } from '../../../repositories/services.js';
import type { AccountRow } from '../../../repositories/sessions.js';
import {
  byAccountEmail,
  byBodyEmail,
  byIp,
  passwordGuesses,
  rateLimit,
  type RateLimitRule,
} from '../../../lib/rate-limiter.js';
import { isAllowedPushEndpoint } from '../../../mail/push.js';
import { recordDuplicateAnswers } from '../../../duplicates/index.js';

const statusSchema = z.object({ status: z.boolean() });

/** The account of a request that passed requireAccount. */
const current = (request: FastifyRequest): AccountRow => request.account!;

/**
 * The account an UPDATE … RETURNING gave. None when it was deleted after this request read it
 * (a second request of its owner, or an administrator): 401, as for a session that has ended.
 */
function signedIn(row: AccountRow | undefined, code: ErrorKey = 'unauthorized'): AccountRow {
  if (!row) throw new PoruchError(401, code);
  return row;
}

/** Auth routes (docs/product.md, API calls), registration and credentials change. */
export async function authRoutes(fastify: FastifyInstance, { env }: { env: Env }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = accountsRepository(app.db);
  const tags = ['auth'];

  const MINUTE = 60_000;
  const limit = (...rules: RateLimitRule[]) => rateLimit(app.rateLimitStore, rules);
  const loginLimits = limit(
    { name: 'login-ip', max: env.RATE_LOGIN_PER_IP, windowMs: MINUTE, key: byIp },
    passwordGuesses(env.RATE_LOGIN_PER_ACCOUNT, byBodyEmail),
  );
  const signupLimits = (name: string) =>
    limit(
      { name: `${name}-ip`, max: env.RATE_SIGNUP_PER_IP, windowMs: 60 * MINUTE, key: byIp },
      { name: `${name}-account`, max: 3, windowMs: 60 * MINUTE, key: byBodyEmail },
    );

  app.get(
    '/auth/check',
    { schema: { tags, summary: 'Is the browser logged in?', response: { 200: authCheckSchema } } },
    async (request) => ({
      status: request.account !== null,
      account: request.account ? accountToApi(request.account) : null,
    }),
  );

  app.post(
    '/auth/login',
    {
      preHandler: loginLimits,
      schema: {
        tags,
        summary: 'Log in',
        body: credentialsSchema,
        response: { 200: accountSchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const account = await repo.findByEmail(email);
      // The same hashing work for an unknown address, a known one and one with a pending reset.
      const matched = await verifyLogin(password, account);
      if (!account || !matched) throw new PoruchError(401, 'wrong_user_or_password');
      let row = account;
      if (matched === 'temporary') {
        // The temporary password becomes the password; every other session ends.
        row = signedIn(
          await repo.update(account.id, {
            passwordHash: account.tempPasswordHash!,
            tempPasswordHash: null,
            tempPasswordExpiresAt: null,
          }),
          'wrong_user_or_password',
        );
        await app.sessions.removeAll(account.id);
      }
      // Rotation: a session token that existed before login is never reused.
      await app.endSession(request, reply);
      await app.startSession(reply, row.id);
      return accountToApi(row);
    },
  );

  app.get(
    '/auth/logout',
    { schema: { tags, summary: 'Log out', response: { 200: statusSchema } } },
    async (request, reply) => {
      await app.endSession(request, reply);
      return { status: false };
    },
  );

  app.put(
    '/auth/update',
    {
      preHandler: app.requireAccount,
      schema: {
        tags,
        summary: 'Change personal data',
        body: personalDataUpdateSchema,
        response: { 200: accountSchema },
      },
    },
    async (request) => accountToApi(signedIn(await repo.update(current(request).id, request.body))),
  );

  app.post(
    '/auth/reset-password',
    {
      preHandler: signupLimits('reset'),
      schema: {
        tags,
        summary: 'E-mail a temporary password',
        description:
          'Answers the same for an unknown address. The old password keeps working until the temporary one is used.',
        body: resetPasswordSchema,
        response: { 200: statusSchema },
      },
    },
    async (request) => {
      const account = await repo.findByEmail(request.body.email);
      if (account) {
        const password = generatePassword(12);
        const tempPasswordHash = await hashPassword(password);
        // The temporary password and its mail commit together (the outbox delivers it).
        await app.db.transaction(async (tx) => {
          const row = await accountsRepository(tx as never).update(account.id, {
            tempPasswordHash,
            tempPasswordExpiresAt: new Date(Date.now() + env.RESET_PASSWORD_MINUTES * 60_000),
          });
          // Deleted meanwhile: no mail, and the same answer as for an unknown address.
          if (!row) return;
          await app.mail.outbox.enqueue(tx, {
            to: account.email,
            locale: account.locale,
            template: 'resetPassword',
            params: {
              password,
              minutes: env.RESET_PASSWORD_MINUTES,
              loginUrl: `${env.PUBLIC_URL}/login`,
            },
            key: `resetPassword:${account.id}:${randomUUID()}`,
          });
        });
        app.mail.worker?.wake();
      } else {
        // The same work as for a known address (a scrypt hash), so the time does not tell.
        await hashPassword(generatePassword(12));
      }
      return { status: true };
    },
  );

  app.post(
    '/auth/register',
    {
      preHandler: limit({
        name: 'register-ip',
        max: env.RATE_SIGNUP_PER_IP,
        windowMs: 60 * MINUTE,
        key: byIp,
      }),
      schema: {
        tags,
        summary: 'Register a partner with the first service',
        body: registrationSchema,
        response: { 201: registrationResultSchema },
      },
    },
    async (request, reply) => {
      const { account: input, service } = request.body;
      if (await repo.findByEmail(input.email)) throw new PoruchError(409, 'email_is_used');
      const passwordHash = await hashPassword(input.password);
      try {
        const result = await app.db.transaction(async (tx) => {
          const [account] = await tx
            .insert(accounts)
            .values({
              email: input.email,
              passwordHash,
              type: 'PARTNER',
              firstName: input.firstName,
              lastName: input.lastName,
              phone: input.phone,
              locale: input.locale,
              marketingConsent: input.marketingConsent,
              termsAgreedAt: new Date(),
            })
            .returning();
          const [created] = await tx
            .insert(services)
            .values({ ...serviceInputToRow(service), ownerId: account!.id, status: 'pending' })
            .returning();
          await recordDuplicateAnswers(tx, created!.id, service.duplicates);
          await app.mail.outbox.enqueue(tx, {
            to: account!.email,
            locale: account!.locale,
            template: 'welcome',
            params: { firstName: account!.firstName, dashboardUrl: `${env.PUBLIC_URL}/dashboard` },
            key: `welcome:${account!.id}`,
          });
          return { account: account!, service: created! };
        });
        app.mail.worker?.wake();
        await app.startSession(reply, result.account.id);
        return reply
          .code(201)
          .send({ account: accountToApi(result.account), service: serviceToApi(result.service) });
      } catch (error) {
        if (isUniqueViolation(error)) throw new PoruchError(409, 'email_is_used');
        throw error;
      }
    },
  );

  app.put(
    '/auth/credentials',
    {
      preHandler: [
        app.requireAccount,
        limit(passwordGuesses(env.RATE_LOGIN_PER_ACCOUNT, byAccountEmail)),
      ],
      schema: {
        tags,
        summary: 'Change e-mail or password (needs the current password)',
        body: credentialsChangeSchema,
        response: { 200: accountSchema },
      },
    },
    async (request, reply) => {
      const account = current(request);
      const { currentPassword, email, newPassword } = request.body;
      if (!(await verifyPassword(currentPassword, account.passwordHash))) {
        throw new PoruchError(400, 'wrong_current_password');
      }
      const changes: Partial<typeof accounts.$inferInsert> = {};
      if (email && email !== account.email.toLowerCase()) {
        const holder = await repo.findByEmail(email);
        if (holder && holder.id !== account.id) throw new PoruchError(409, 'email_is_used');
        changes.email = email;
      }
      if (newPassword) {
        changes.passwordHash = await hashPassword(newPassword);
        changes.tempPasswordHash = null;
        changes.tempPasswordExpiresAt = null;
      }
      let updated: AccountRow;
      try {
        // The change and the notice to the old address commit together.
        updated = await app.db.transaction(async (tx) => {
          const row = signedIn(await accountsRepository(tx as never).update(account.id, changes));
          await app.mail.outbox.enqueue(tx, {
            to: account.email,
            locale: account.locale,
            template: 'credentialsChanged',
            params: { newEmail: changes.email ?? null },
            key: `credentialsChanged:${account.id}:${randomUUID()}`,
          });
          return row;
        });
        app.mail.worker?.wake();
      } catch (error) {
        if (isUniqueViolation(error)) throw new PoruchError(409, 'email_is_used');
        throw error;
      }
      // Every session ends, this one included; the browser that made the change gets a new one.
      await app.sessions.removeAll(account.id);
      await app.startSession(reply, account.id);
      return accountToApi(updated);
    },
  );

  app.post(
    '/auth/notifications',
    {
      preHandler: app.requireAccount,
      schema: {
        tags,
        summary: 'Store the browser push subscription of the logged-in account',
        body: pushSubscriptionSchema,
        response: { 200: statusSchema },
      },
    },
    async (request) => {
      const { endpoint, keys } = request.body;
      // Only real push services: the server POSTs to this URL later (docs/security.md).
      if (!isAllowedPushEndpoint(endpoint, app.mail.allowPrivatePush)) {
        throw new PoruchError(400, 'validation_failed', undefined, [
          { field: 'endpoint', key: VALIDATION_KEYS.pushEndpoint },
        ]);
      }
      await app.db
        .insert(pushSubscriptions)
        .values({ accountId: current(request).id, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { accountId: current(request).id, p256dh: keys.p256dh, auth: keys.auth },
        });
      return { status: true };
    },
  );
}
