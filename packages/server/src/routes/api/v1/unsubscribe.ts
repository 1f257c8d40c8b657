import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { accounts } from '../../../db/schema.js';
import { byIp, rateLimit } from '../../../lib/rate-limiter.js';
import { verifyUnsubscribeToken } from '../../../mail/unsubscribe.js';

/** The answer: a key of core's `success.*` messages (spec §8, unsubscribe succeeded or failed). */
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
const tokenSchema = z.string().max(300);

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

  // One-click posts are forms; only this plugin accepts them.
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  fastify.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, {}));
  });

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
      preHandler: limit,
      schema: {
        tags,
        summary: 'Unsubscribe from campaign mails (RFC 8058 one-click)',
        description:
          'The token is in the query (`?token=`, as in List-Unsubscribe) or in a JSON or form body.',
        querystring: z.object({ token: tokenSchema.optional() }),
        body: z
          .object({ token: tokenSchema.optional(), 'List-Unsubscribe': z.string().optional() })
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
