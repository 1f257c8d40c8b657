import { createHmac, timingSafeEqual } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const signature = (secret: string, accountId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${accountId.toLowerCase()}`).digest('base64url');

/**
 * The unsubscribe token of an account: `<account id>.<HMAC-SHA256 of it>`. It does not expire,
 * so a link in an old mail still works; it can do nothing but unsubscribe that one account.
 */
export function unsubscribeToken(secret: string, accountId: string): string {
  return `${accountId}.${signature(secret, accountId)}`;
}

/** The account id of a valid token, or null for anything malformed or tampered with. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const accountId = token.slice(0, dot);
  if (!UUID.test(accountId)) return null;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(secret, accountId));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return accountId;
}
