import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import webpush from 'web-push';
import type { Db } from '../db/index.js';
import type { Env } from '../env.js';
import { settingOrCreate } from '../lib/settings.js';
import type { RenderedPush } from './templates.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID keys: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY from the environment, or a pair
 * generated on first start and kept in `settings`, so subscriptions survive restarts.
 */
export async function loadVapidKeys(db: Db, env: Env): Promise<VapidKeys> {
  const address = /<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM.trim();
  const subject = env.VAPID_SUBJECT ?? `mailto:${address}`;
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const stored = await settingOrCreate(db, 'vapid_keys', () =>
    JSON.stringify(webpush.generateVAPIDKeys()),
  );
  const keys = JSON.parse(stored) as { publicKey: string; privateKey: string };
  return { ...keys, subject };
}

/** Addresses a push endpoint may not reach: private, loopback, link-local, CGNAT, multicast… */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

const isPublicAddress = (address: string) => {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && /^::ffff:/i.test(address)) {
    const v4 = address.slice(7);
    if (isIP(v4) === 4) return !NOT_PUBLIC.check(v4, 'ipv4');
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

const hostOf = (endpoint: string) => new URL(endpoint).hostname.replace(/^\[|\]$/g, '');

/**
 * Whether a push endpoint may be stored, judged without the network: https, and not a name or an
 * address literal that is obviously internal. Resolved addresses are checked again when sending.
 */
export function isAllowedPushEndpoint(endpoint: string, allowPrivate: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  if (allowPrivate) return true;
  const host = hostOf(endpoint).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || (!host.includes('.') && !isIP(host))) {
    return false;
  }
  return isIP(host) === 0 || isPublicAddress(host);
}

/**
 * Where the endpoint's host points, checked right before a push so that a name which later
 * resolves inside (DNS rebinding) is refused too: `public` when every address is public,
 * `private` when one is not (the subscription is dropped), `unresolved` when the name does not
 * resolve now (a retry may succeed).
 */
export async function endpointReach(
  endpoint: string,
  allowPrivate: boolean,
): Promise<'public' | 'private' | 'unresolved'> {
  if (!isAllowedPushEndpoint(endpoint, allowPrivate)) return 'private';
  if (allowPrivate) return 'public';
  try {
    const addresses = await lookup(hostOf(endpoint), { all: true, verbatim: true });
    if (addresses.length === 0) return 'unresolved';
    return addresses.every((a) => isPublicAddress(a.address)) ? 'public' : 'private';
  } catch {
    return 'unresolved';
  }
}

/** What became of one push. */
export type PushOutcome =
  | { kind: 'sent' }
  /** 404 or 410: the subscription is gone for good. */
  | { kind: 'gone'; error: string }
  | { kind: 'failed'; permanent: boolean; error: string };

/** Sends one encrypted (aes128gcm) push with a VAPID Authorization header. */
export async function sendPush(
  vapid: VapidKeys,
  subscription: { endpoint: string; p256dh: string; auth: string },
  push: RenderedPush & { tag: string },
  /** Replaces a not yet delivered push with the same topic at the push service (≤ 32 base64url). */
  topic?: string,
): Promise<PushOutcome> {
  try {
    await webpush.sendNotification(
      {
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      },
      JSON.stringify(push),
      {
        vapidDetails: vapid,
        contentEncoding: 'aes128gcm',
        TTL: 24 * 60 * 60,
        timeout: 15_000,
        ...(topic ? { topic } : {}),
      },
    );
    return { kind: 'sent' };
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    const text = error instanceof Error ? error.message : String(error);
    if (status === 404 || status === 410) return { kind: 'gone', error: `${status}` };
    // 429 and 5xx pass; other 4xx answers mean this request can never succeed.
    const permanent = status !== undefined && status >= 400 && status < 500 && status !== 429;
    return { kind: 'failed', permanent, error: status ? `${status}: ${text}` : text };
  }
}
