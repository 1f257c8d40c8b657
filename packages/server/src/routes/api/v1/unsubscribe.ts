import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { PoruchError, text } from '@poruch/core';
import { accounts } from '../../../db/schema.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';
import { verifyUnsubscribeToken } from '../../../mail/unsubscribe.js';

/** The answer: a key of core's `success.*` messages (unsubscribe succeeded or failed). */
const resultSchema = z.object({
  status: z.boolean(),
  message: z.enum(['unsubscribe_succeeded', 'unsubscribe_failed']),
});
/**
 * A failed unsubscribe: the same fields, inside the error body every refusal has (a catalogue key
 * in `errors.message`, the detail in `error.message`), so clients handle it like any 4xx.
 */
const failedSchema = resultSchema.extend({
  statusCode: z.literal(400),
  errors: z.object({ message: z.literal('bad_request') }),
  error: z.object({ message: z.literal('unsubscribe_failed') }),
});
const tokenSchema = text({ trim: false }).max(300);

/**
 * The body parsers of an RFC 8058 one-click route (this plugin's, and the alerts' one-click
 * unsubscribe): the body is optional whatever it is sent as: a mail client's one-click form
 * (`List-Unsubscribe=One-Click`, urlencoded or multipart), a JSON or form `{ token }`, or
 * nothing at all (no body, or an empty one with any Content-Type or none) with the token in the
 * query. Only the given plugin's parsers change: an empty body is no body there, a non-empty JSON
 * body goes through Fastify's own JSON parser (invalid_json, prototype poisoning refused), and a
 * non-empty body of any other type is 415 unsupported_media_type.
 */
export function oneClickBodyParsers(fastify: FastifyInstance) {
  fastify.removeAllContentTypeParsers();
  const json = fastify.getDefaultJsonParser('error', 'error');
  const isEmpty = (body: string | Buffer) => body.toString().trim() === '';
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    isEmpty(body) ? done(null, {}) : json(request, body as string, done),
  );
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  fastify.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, {}));
  });
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
    isEmpty(body) ? done(null, {}) : done(new PoruchError(415, 'unsupported_media_type')),
  );
}

/**
 * Unsubscribe by the signed token of a campaign mail. `POST` is RFC 8058 one-click (the mail's
 * List-Unsubscribe URL, body `List-Unsubscribe=One-Click`): no cookie, no anti-forgery token, any
 * origin. `GET` serves a mail client that opens the same URL in a browser and the site's
 * unsubscribe page. Both are idempotent; a tampered token fails and changes nothing.
 */
export async function unsubscribeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['mail'];
  const limit = rateLimit(app.rateLimitStore, [
    { name: 'unsubscribe-ip', max: 60, windowMs: 60_000, key: byIp },
  ]);

  oneClickBodyParsers(fastify);

  const unsubscribe = async (token: string | undefined) => {
    const accountId = token ? verifyUnsubscribeToken(app.mail.unsubscribeSecret, token) : null;
    if (!accountId) return false;
    await app.db
      .update(accounts)
      .set({ unsubscribed: true, updatedAt: new Date() })
      .where(eq(accounts.id, accountId));
    return true;
  };
  const answer = async (
    request: FastifyRequest,
    reply: { code(n: number): unknown },
    token: string | undefined,
  ) => {
    if (await unsubscribe(token)) {
      request.log.info('unsubscribed');
      return { status: true, message: 'unsubscribe_succeeded' as const };
    }
    reply.code(400);
    return {
      statusCode: 400 as const,
      errors: { message: 'bad_request' as const },
      error: { message: 'unsubscribe_failed' as const },
      status: false,
      message: 'unsubscribe_failed' as const,
    };
  };

  app.post(
    '/unsubscribe',
    {
      config: { public: true, csrf: false },
      // No body at all is an empty one (the token is in the query).
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: limit,
      schema: {
        tags,
        summary: 'Unsubscribe from campaign mails (RFC 8058 one-click)',
        description:
          'The token is in the query (`?token=`, as in List-Unsubscribe) or in a JSON or form body. ' +
          'With the token in the query the body may be anything a mail client sends: ' +
          '`List-Unsubscribe=One-Click` (form or multipart), an empty body of any type, or none.',
        querystring: z.object({ token: tokenSchema.optional() }),
        body: z
          .object({ token: tokenSchema.optional(), 'List-Unsubscribe': text().optional() })
          .optional(),
        response: { 200: resultSchema, 400: failedSchema },
      },
    },
    async (request, reply) => answer(request, reply, request.query.token ?? request.body?.token),
  );

  app.get(
    '/unsubscribe',
    {
      config: { public: true },
      preHandler: limit,
      schema: {
        tags,
        summary: 'Unsubscribe from campaign mails by the link of a mail',
        querystring: z.object({ token: tokenSchema.optional() }),
        response: { 200: resultSchema, 400: failedSchema },
      },
    },
    async (request, reply) => answer(request, reply, request.query.token),
  );
}
