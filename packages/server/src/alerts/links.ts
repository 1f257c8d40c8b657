import type { LocaleCode } from '@poruch/core';
import { signedToken, verifySignedToken } from '../mail/unsubscribe.js';

/**
 * The signed links of alert mails (docs/mail.md § Alerts), HMAC-SHA256 with the server's mail
 * secret as the campaign unsubscribe links are:
 *
 * - confirm: one subscription, valid for `CONFIRM_TOKEN_DAYS` (the double opt-in link);
 * - manage: one address, every alert of it (the manage page); it does not expire, so the link in
 *   an old mail still works, and it can do nothing for another address;
 * - unsubscribe: one subscription, RFC 8058 one-click (List-Unsubscribe); it does not expire.
 */

/** The subscription an alert mail is about. */
export interface AlertRecipient {
  id: string;
  email: string;
  locale: LocaleCode;
}

export const CONFIRM_TOKEN_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function alertConfirmToken(secret: string, subscriptionId: string, now = new Date()) {
  const expires = Math.floor((now.getTime() + CONFIRM_TOKEN_DAYS * DAY_MS) / 1000);
  return signedToken(secret, 'alert-confirm', `${subscriptionId}_${expires.toString(36)}`);
}

/** The subscription of a confirm token: `expired` once its days are over, null when forged. */
export function verifyAlertConfirmToken(
  secret: string,
  token: string,
  now = new Date(),
): { id: string; mailedAt: Date } | 'expired' | null {
  const value = verifySignedToken(secret, 'alert-confirm', token);
  const [id, expires] = value?.split('_') ?? [];
  if (!id || !expires || !UUID.test(id)) return null;
  const until = parseInt(expires, 36) * 1000;
  if (until < now.getTime()) return 'expired';
  // When the link was made (to the second): its days before it expires.
  return { id, mailedAt: new Date(until - CONFIRM_TOKEN_DAYS * DAY_MS) };
}

export const alertManageToken = (secret: string, email: string) =>
  signedToken(secret, 'alert-manage', Buffer.from(email.toLowerCase()).toString('base64url'));

/** The address of a manage token, or null. */
export function verifyAlertManageToken(secret: string, token: string): string | null {
  const value = verifySignedToken(secret, 'alert-manage', token);
  return value ? Buffer.from(value, 'base64url').toString() : null;
}

export const alertUnsubscribeToken = (secret: string, subscriptionId: string) =>
  signedToken(secret, 'alert-unsubscribe', subscriptionId);

/** The subscription of a one-click unsubscribe token, or null. */
export function verifyAlertUnsubscribeToken(secret: string, token: string): string | null {
  const id = verifySignedToken(secret, 'alert-unsubscribe', token);
  return id && UUID.test(id) ? id : null;
}

/** The site's page that confirms a subscription, in its language. */
export const alertConfirmUrl = (
  publicUrl: string,
  secret: string,
  s: AlertRecipient,
  now = new Date(),
) => `${publicUrl}/alerts/confirm?token=${alertConfirmToken(secret, s.id, now)}&lang=${s.locale}`;

/** The site's page listing every alert of the subscription's address, in its language. */
export const alertManageUrl = (publicUrl: string, secret: string, s: Omit<AlertRecipient, 'id'>) =>
  `${publicUrl}/alerts/manage?token=${alertManageToken(secret, s.email)}&lang=${s.locale}`;

/**
 * The headers of every alert mail of a subscription: RFC 8058 one-click unsubscribe (a POST to
 * the URL deletes that one subscription, no cookie, no login) and RFC 2369's list header.
 */
export function alertMailHeaders(
  publicUrl: string,
  secret: string,
  s: Pick<AlertRecipient, 'id'>,
): Record<string, string> {
  const url = `${publicUrl}/api/v1/alerts/unsubscribe?token=${alertUnsubscribeToken(secret, s.id)}`;
  return {
    'List-Unsubscribe': `<${url}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
