import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_PREFIX, FORBIDDEN_TEXT, PoruchError, VALIDATION_KEYS } from '@poruch/core';

/**
 * The path (dots) of the first key or string in a parsed value that holds text no database
 * column can take (FORBIDDEN_TEXT.multiline: U+0000, a lone surrogate, a control character other
 * than tab, LF and CR), or null. Walked without recursion: a deeply nested body cannot overflow
 * the stack.
 */
export function forbiddenTextAt(value: unknown, root = ''): string | null {
  const rule = FORBIDDEN_TEXT.multiline;
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (rule.test(node)) return path;
      continue;
    }
    if (node === null || typeof node !== 'object' || Buffer.isBuffer(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      if (rule.test(key)) return at;
      stack.push([child, at]);
    }
  }
  return null;
}

/** What a request carries that a handler may pass on to the database. */
const PARTS: readonly (readonly [string, (r: FastifyRequest) => unknown])[] = [
  ['params', (r: FastifyRequest) => r.params],
  ['query', (r: FastifyRequest) => r.query],
  ['body', (r: FastifyRequest) => r.body],
  ['cookie', (r: FastifyRequest) => r.cookies],
];
/** The site's pages and files: only their path parameters reach a query (a profile's id). */
const SITE_PARTS = PARTS.filter(([part]) => part === 'params');
const API_PATH = `/${API_PREFIX}/`;

/**
 * The last net under the schemas (text() in @poruch/core refuses the same in every field it
 * knows): before any handler, and before the session lookup, a NUL, a lone surrogate or a control
 * character anywhere in the route parameters, the query string (keys and values), the JSON body
 * (keys and values, at any depth) or a cookie is a 400 validation_failed with
 * validation.invalid_characters on its path, whatever the route. Headers need no check: Node's
 * parser refuses control characters in them (400 bad_request), and they arrive as Latin-1, which
 * has no surrogates.
 *
 * The site's pages keep their query and cookies as sent: the app reads them in the browser (a
 * `back` with a control character is the browser's to resolve, and the login page must show), so
 * outside the API only path parameters are checked.
 */
export const textInputPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preHandler', async (request) => {
    const parts = request.url.startsWith(API_PATH) ? PARTS : SITE_PARTS;
    for (const [part, read] of parts) {
      const at = forbiddenTextAt(read(request));
      if (at === null) continue;
      const field = part === 'cookie' ? `cookie.${at}` : at;
      throw new PoruchError(400, 'validation_failed', undefined, [
        {
          field,
          key: VALIDATION_KEYS.invalidCharacters,
          params: { name: field.split('.').pop() ?? '' },
        },
      ]);
    }
  });
});
