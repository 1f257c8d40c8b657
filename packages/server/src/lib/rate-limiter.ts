import type { FastifyReply, FastifyRequest } from 'fastify';
import { PoruchError } from '@poruch/core';

/** Counts hits of a key in a fixed window. The memory store is per process; issue 7 adds Redis. */
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

/**
 * A preHandler that applies every rule (for example per IP and per account on one route) and
 * answers 429 `too_many_requests` with Retry-After when any is exceeded. @fastify/rate-limit
 * runs at most one limiter per request, which is why this exists.
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
