import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { PoruchError } from '@poruch/core';

/**
 * Counts hits of a key in a fixed window. The memory store is per process; the Redis store
 * (REDIS_URL) is shared by every instance.
 */
export interface RateLimitStore {
  /** Adds one hit and answers the count in the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
}

export function memoryRateLimitStore(): RateLimitStore & { sweep(): void } {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count++;
      return { count: w.count, resetAt: w.resetAt };
    },
    sweep() {
      const now = Date.now();
      for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
    },
  };
}

/**
 * One atomic step on the server: INCR the window's counter, start its expiry on the first hit (or
 * when a counter somehow has none), and answer the count and the milliseconds left. Run as one Lua
 * script, so two instances hitting the same key at once can neither lose a hit nor leave a counter
 * that never expires.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

export interface RedisStoreOptions {
  /** Key prefix, so several deployments can share one Redis. Defaults to `poruch:rl:`. */
  prefix?: string;
  /** Longest a hit may wait for Redis before the request goes on without it, in ms. Defaults to 250. */
  timeoutMs?: number;
  /** Where the fail-open warnings go (at most one every `warnEveryMs`). */
  log?: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  warnEveryMs?: number;
}

type RedisWithHit = Redis & {
  poruchHit(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * Hits counted in Redis, shared by every instance. Keys are `prefix + sha256(name:key)`, so no
 * e-mail address or IP is stored in Redis in the clear.
 *
 * Fails open: while Redis cannot answer (down, unreachable, slower than `timeoutMs`), hits are
 * counted in this process's memory instead, with a logged warning. Requests never fail because of
 * Redis; the limits then hold per instance (N instances allow up to N times the limit) until Redis
 * answers again.
 */
export function redisRateLimitStore(
  url: string,
  options: RedisStoreOptions = {},
): RateLimitStore & { close(): Promise<void>; readonly redis: Redis; sweep(): void } {
  const prefix = options.prefix ?? 'poruch:rl:';
  const timeoutMs = options.timeoutMs ?? 250;
  const warnEveryMs = options.warnEveryMs ?? 60_000;
  const redis = new Redis(url, {
    // Fail fast instead of queueing: a request must not wait for a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: 2000,
    // Keep trying to reconnect, backing off to 5 s.
    retryStrategy: (times) => Math.min(times * 200, 5000),
    lazyConnect: false,
  }) as RedisWithHit;
  redis.defineCommand('poruchHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  let lastWarn = 0;
  let degraded = false;
  // Connection errors are reported through hit(); without a listener ioredis would print them.
  redis.on('error', () => {});
  redis.on('ready', () => {
    if (degraded) options.log?.info('rate limits: Redis answers again; limits are shared again');
    degraded = false;
  });
  const fallback = memoryRateLimitStore();

  return {
    redis,
    async hit(key, windowMs) {
      const hashed = prefix + createHash('sha256').update(key).digest('base64url');
      try {
        const [count, ttl] = await redis.poruchHit(hashed, windowMs);
        return { count: Number(count), resetAt: Date.now() + Number(ttl) };
      } catch (err) {
        degraded = true;
        const now = Date.now();
        if (now - lastWarn >= warnEveryMs) {
          lastWarn = now;
          options.log?.warn(
            { err: { message: (err as Error).message } },
            'rate limits: Redis unavailable, counting in this process (fail-open)',
          );
        }
        return fallback.hit(key, windowMs);
      }
    },
    sweep: () => fallback.sweep(),
    async close() {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}

/**
 * The store for this process: Redis when REDIS_URL is set, else memory. Sweeps expired memory
 * windows every minute; close() stops that and the Redis connection.
 */
export function createRateLimitStore(
  redisUrl: string | undefined,
  log?: RedisStoreOptions['log'],
): RateLimitStore & { close(): Promise<void> } {
  const redis = redisUrl ? redisRateLimitStore(redisUrl, { log }) : null;
  const store = redis ?? memoryRateLimitStore();
  const sweep = setInterval(() => store.sweep(), 60_000);
  sweep.unref();
  return {
    hit: (key, windowMs) => store.hit(key, windowMs),
    async close() {
      clearInterval(sweep);
      await redis?.close();
    },
  };
}

export interface RateLimitRule {
  /** Name of the limit; keys of different limits never mix. */
  name: string;
  /** Hits allowed per window. */
  max: number;
  windowMs: number;
  /** What is counted: the IP, the account's e-mail… */
  key: (request: FastifyRequest) => string;
}

/** The client IP, as Fastify resolved it (X-Forwarded-For only with TRUST_PROXY). */
export const byIp = (request: FastifyRequest) => request.ip;

/** The e-mail in the body, so guessing one account's password from many IPs is limited too. */
export const byBodyEmail = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : `ip:${request.ip}`;
};

/** The logged-in account's e-mail (after requireAccount), counted as login counts the body's. */
export const byAccountEmail = (request: FastifyRequest) =>
  request.account!.email.trim().toLowerCase();

/**
 * The one limit on guesses of an account's password, `max` per 15 minutes: every check of it
 * (login, by the address in the body; a credentials change and an account deletion, by the
 * logged-in account's address) counts against the same window, right or wrong, before the check.
 * Once it is reached, every one of them answers 429, even with the right password, until the
 * window ends: a stolen session gets no more guesses than the login form.
 */
export const passwordGuesses = (
  max: number,
  key: (request: FastifyRequest) => string,
): RateLimitRule => ({ name: 'password-account', max, windowMs: 15 * 60_000, key });

/**
 * A preHandler that applies every rule (for example per IP and per account on one route) and
 * answers 429 `too_many_requests` with Retry-After when any is exceeded. Why this is not
 * @fastify/rate-limit (a second `fastify.rateLimit()` on a request never counts, no fail-open to
 * memory, a memory store that evicts counters): docs/architecture.md, "Hand-written infrastructure".
 */
export function rateLimit(store: RateLimitStore, rules: RateLimitRule[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const rule of rules) {
      const { count, resetAt } = await store.hit(
        `${rule.name}:${rule.key(request)}`,
        rule.windowMs,
      );
      if (count > rule.max) {
        reply.header('retry-after', String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))));
        throw new PoruchError(429, 'too_many_requests', rule.name);
      }
    }
  };
}
