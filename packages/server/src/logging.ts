import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Env } from './env.js';

/**
 * Paths of structured log fields whose values must never reach the log: credentials, tokens and
 * personal data, wherever a log call puts them (one or two levels deep).
 */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'headers["x-xsrf-token"]',
  ...[
    'password',
    'currentPassword',
    'newPassword',
    'confirmPassword',
    'tempPassword',
    'passwordHash',
    'token',
    'email',
    'newEmail',
    'phone',
    'firstName',
    'lastName',
    'recipient',
    'to',
    'body',
    'params',
    'parameters',
    'detail',
  ].flatMap((k) => [k, `*.${k}`]),
];

/** Query parameters logged with their value; every other value is replaced (tokens, text, e-mails). */
const LOGGED_QUERY_PARAMS = new Set([
  'page',
  'pageSize',
  'zoom',
  'bbox',
  'country',
  'category',
  'online',
  'hasVacancy',
  'openOnly',
  'experience',
  'sort',
  'status',
  'isPartner',
  'radiusKm',
]);

/** The path with only harmless query values kept (`?q=…&page=2` → `?q=[redacted]&page=2`). */
export function safeUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  const kept = [...params].map(([k, v]) =>
    LOGGED_QUERY_PARAMS.has(k) ? `${k}=${encodeURIComponent(v)}` : `${k}=[redacted]`,
  );
  return `${url.slice(0, mark)}?${kept.join('&')}`;
}

/** An IP address with its host part zeroed (IPv4 /24, IPv6 /48): enough for abuse, not a person. */
export function truncateIp(ip: string | undefined): string | undefined {
  if (!ip) return ip;
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/.exec(ip);
  if (v4) return `${v4[1]}.0`;
  if (ip.includes(':')) return `${ip.split(':').slice(0, 3).join(':')}::`;
  return ip;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** drizzle's query errors end with the statement's parameters: values the user sent. */
const QUERY_PARAMS = /(\\nparams: )(?:[^"\\]|\\.)*/g;

/** Where log lines go (pino's destination shape). */
export interface LogDestination {
  write(line: string): unknown;
}

/** Removes e-mail addresses and query parameters from a finished JSON log line. */
export function scrubLine(line: string): string {
  return line.replace(EMAIL, '[email]').replace(QUERY_PARAMS, '$1[redacted]');
}

/** A destination that scrubs every line before it reaches `target` (stdout by default). */
export function scrubbingStream(target?: LogDestination): LogDestination {
  const out = target ?? process.stdout;
  return { write: (line: string) => out.write(scrubLine(line)) };
}

interface ErrorLike {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  statusCode?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  cause?: unknown;
}

/**
 * An error for the log, with only what cannot carry user data: type, code, status, a message
 * without the statement's parameters (drizzle appends them) or, for a PostgreSQL error, without the
 * quoted values it cites (`invalid input syntax for type integer: "…"`), the constraint, table and
 * column names, the stack frames, and the cause the same way. Never `detail` (`Key (email)=(…)`).
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!error || typeof error !== 'object') return { message: String(error) };
  const e = error as ErrorLike;
  const fromDatabase = typeof e.severity === 'string';
  let message = String(e.message ?? '').replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
  if (fromDatabase) message = message.replace(/"[^"]*"/g, '"[redacted]"');
  const frames = (e.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  const out: Record<string, unknown> = { type: e.name ?? 'Error', message };
  for (const key of ['code', 'statusCode', 'constraint', 'table', 'column'] as const) {
    if (e[key] !== undefined) out[key] = e[key];
  }
  if (frames) out.stack = frames;
  if (e.cause && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** A sane incoming request id: 1 to 128 characters of letters, digits and `._:-`. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id: the caller's X-Request-Id (a proxy's or a load balancer's, so one id follows the
 * request through every hop) when it looks sane, otherwise a new UUID.
 */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The server's pino options: JSON lines with the request id (`reqId`), redacted credentials and
 * personal data, URLs with only harmless query values, truncated client addresses, and a final
 * scrub of e-mail addresses from every line. docs/operations.md#logs-and-metrics.
 */
export function loggerOptions(
  env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>,
  destination?: LogDestination,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  // Fastify's type wants pino's own error shape; ours has fewer fields on purpose.
  const err = (error: unknown) =>
    serializeError(error) as { type: string; message: string; stack: string };
  return {
    level: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      err,
      error: err,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: safeUrl(request.url),
        route: request.routeOptions?.url,
        remoteAddress: truncateIp(request.ip),
      }),
    },
    stream: scrubbingStream(destination),
  };
}
