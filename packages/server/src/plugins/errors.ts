import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  PoruchError,
  VALIDATION_KEYS,
  issueToFieldError,
  zodErrorToFieldErrors,
  type ErrorKey,
  type FieldError,
} from '@poruch/core';
import { z } from 'zod';

/** Fastify's own error codes, mapped to the catalogue. */
const FASTIFY_CODES: Record<string, [number, ErrorKey]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request'],
  FST_CSRF_INVALID_TOKEN: [403, 'csrf_token_invalid'],
  FST_CSRF_MISSING_SECRET: [403, 'csrf_token_invalid'],
  FST_ERR_VALIDATION: [400, 'validation_failed'],
  FST_ERR_NOT_FOUND: [404, 'not_found'],
  // Found by the fuzz test: answered before any route, with Fastify's own body.
  FST_ERR_BAD_URL: [400, 'bad_request'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'payload_too_large'],
  FST_ERR_ASYNC_CONSTRAINT: [500, 'internal_server_error'],
};

/**
 * Fastify's `frameworkErrors`: a malformed URL (`/services/%zz`) or an over-long path parameter
 * is refused before routing; without this its body would carry no catalogue key.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const poruch = toPoruchError(error);
  request.log.info({ key: poruch.key, statusCode: poruch.statusCode }, 'request rejected');
  reply.code(poruch.statusCode).send(poruch.toBody());
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (headers or URL over the size
 * limit, a malformed request line) is answered on the socket with a catalogue body too.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, key] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'payload_too_large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'bad_request']
        : [400, 'Bad Request', 'bad_request'];
  const body = JSON.stringify({ statusCode: status, errors: { message: key } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * SQLSTATEs of text the database cannot store: 22021 "invalid byte sequence" (U+0000 in text)
 * and 22P05 "unsupported Unicode escape sequence" (\u0000 in jsonb). PostgreSQL and PGlite give
 * the same codes; Drizzle wraps the driver's error, so the cause chain is searched.
 */
const TEXT_REFUSED = new Set(['22021', '22P05']);

/**
 * SQLSTATE 23503 "foreign key violation": a row the write refers to is not there, deleted by a
 * concurrent request between the route's check and its write (or never there).
 */
const REFERENCE_GONE = new Set(['23503']);

/** The first SQLSTATE of `codes` anywhere in an error's cause chain, or null. */
function sqlStateOf(error: unknown, codes: ReadonlySet<string>): string | null {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && codes.has(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return null;
}

/** The SQLSTATE of a database refusal of text anywhere in an error's cause chain, or null. */
export const textRefusedCode = (error: unknown): string | null => sqlStateOf(error, TEXT_REFUSED);

/** True when the database refused a write because a row it refers to is gone. */
export const referenceGone = (error: unknown): boolean => !!sqlStateOf(error, REFERENCE_GONE);

/** Turns any thrown value into the catalogue shape (docs/architecture.md, Errors). */
export function toPoruchError(error: unknown): PoruchError {
  if (error instanceof PoruchError) return error;
  // The last line under the schemas and the text input hook: never a 500 for text.
  if (textRefusedCode(error)) {
    return new PoruchError(400, 'validation_failed', VALIDATION_KEYS.invalidCharacters);
  }
  // What the request refers to was deleted meanwhile: as if it had never been found.
  if (referenceGone(error)) return new PoruchError(404, 'resource_was_not_found');
  if (error instanceof z.ZodError) {
    return new PoruchError(400, 'validation_failed', undefined, zodErrorToFieldErrors(error));
  }
  const e = error as FastifyError & { validation?: unknown };
  if (hasZodFastifySchemaValidationErrors(e)) {
    const fields: FieldError[] = e.validation.flatMap((v) =>
      issueToFieldError({
        ...(v.params as object),
        code: v.keyword,
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? '',
      } as unknown as z.core.$ZodIssue),
    );
    return new PoruchError(400, 'validation_failed', e.validationContext, fields);
  }
  const mapped = e?.code ? FASTIFY_CODES[e.code] : undefined;
  if (mapped) return new PoruchError(mapped[0], mapped[1]);
  if (e?.statusCode === 429) return new PoruchError(429, 'too_many_requests');
  if (e instanceof SyntaxError) return new PoruchError(400, 'invalid_json');
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new PoruchError(e.statusCode, 'bad_request');
  }
  return new PoruchError(500, 'internal_server_error');
}

/**
 * One error handler for the whole server: every error body carries a catalogue key, and a 5xx
 * hides its internals (they go to the log with the request id instead).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) => {
    const poruch = toPoruchError(error);
    const refused = textRefusedCode(error);
    if (poruch.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else if (refused) {
      // A text got past the schemas and the input hook: answered, but worth a look.
      request.log.warn({ code: refused, key: poruch.key }, 'text refused by the database');
    } else {
      request.log.info({ key: poruch.key, statusCode: poruch.statusCode }, 'request rejected');
    }
    const headers = (error as { headers?: Record<string, string> }).headers;
    if (headers) reply.headers(headers);
    // Serialized as is: a route's own response schema for this status (unsubscribe's 400) must
    // not reject the error body and turn it into a 500 (found by the fuzz test).
    return reply
      .code(poruch.statusCode)
      .type('application/json; charset=utf-8')
      .serializer(JSON.stringify)
      .send(poruch.toBody());
  });
});

export { PoruchError };
