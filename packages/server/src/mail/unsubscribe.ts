import { createHmac, timingSafeEqual } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const signature = (secret: string, purpose: string, value: string) =>
  createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');

/**
 * A token of a mailed link: `<value>.<HMAC-SHA256 of purpose and value>`. The purpose keeps a
 * token of one kind of link from working as another's. The value holds no dot.
 */
export function signedToken(secret: string, purpose: string, value: string): string {
  return `${value}.${signature(secret, purpose, value)}`;
}

/** The value of a valid token of `purpose`, or null for anything malformed or tampered with. */
export function verifySignedToken(secret: string, purpose: string, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const value = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(secret, purpose, value));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return value;
}

/**
 * The unsubscribe token of an account: `<account id>.<HMAC-SHA256 of it>`. It does not expire,
 * so a link in an old mail still works; it can do nothing but unsubscribe that one account.
 */
export function unsubscribeToken(secret: string, accountId: string): string {
  return signedToken(secret, 'unsubscribe', accountId.toLowerCase());
}

/** The account id of a valid token, or null for anything malformed or tampered with. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const dot = token.indexOf('.');
  const accountId = token.slice(0, Math.max(dot, 0));
  if (!UUID.test(accountId)) return null;
  const lowered = `${accountId.toLowerCase()}${token.slice(dot)}`;
  return verifySignedToken(secret, 'unsubscribe', lowered) ? accountId : null;
}
