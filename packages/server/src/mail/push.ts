import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
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

/** Addresses a push endpoint may not reach: see isPublicAddress. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is a public unicast one, as ipaddr.js classifies it: every named range
 * (loopback, private, link-local, unique-local, site-local, CGNAT, multicast, broadcast,
 * unspecified, reserved, benchmarking…) is refused, and so is every IPv6 address outside global
 * unicast 2000::/3 (IPv4-compatible ::a.b.c.d among them). IPv4-mapped addresses are judged by their
 * IPv4 address; the other ranges that carry one (NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
 * 2002::/16, Teredo 2001::/32, SIIT ::ffff:0:0:0/96) are named ranges, so they are refused
 * outright. A scoped address (fe80::1%eth0) is refused too.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.zoneId) return false;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === 'unicast';
}

/**
 * Top-level names that lead to no public host, or only through a resolver of the local network:
 * localhost and test (RFC 6761), local (mDNS, RFC 6762), arpa (home.arpa and reverse names),
 * onion, alt (RFC 9476), internal (ICANN's private-use name) and localdomain. (.invalid never
 * resolves at all: such an endpoint is harmless and simply fails.)
 */
const SPECIAL_USE_TLDS = new Set([
  'localhost',
  'localdomain',
  'local',
  'internal',
  'arpa',
  'test',
  'onion',
  'alt',
]);

/**
 * The endpoint parsed as the connection will use it: the WHATWG URL (which already turns
 * decimal, octal and hex IPv4 forms into dotted quads), the host name lowercased without brackets
 * or trailing dots, and whether that host is an address literal. Null when the endpoint is not an
 * https URL without credentials, or (unless `allowPrivate`) names an internal host.
 */
function pushTarget(
  endpoint: string,
  allowPrivate: boolean,
): { url: URL; host: string; literal: boolean } | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  const literal = isIP(host) !== 0;
  if (allowPrivate) return { url, host, literal };
  if (literal) return isPublicAddress(host) ? { url, host, literal } : null;
  const labels = host.split('.');
  // A single label (intranet) is looked up in the search domains of the server's network.
  if (labels.length < 2 || labels.some((l) => l === '')) return null;
  if (SPECIAL_USE_TLDS.has(labels[labels.length - 1]!)) return null;
  // Whatever still parses as an address in some form (inet_aton's 0x7f.1) is not a name.
  if (ipaddr.isValid(host)) return null;
  return { url, host, literal };
}

/**
 * Whether a push endpoint may be stored, judged without the network: https, no credentials, and
 * not a name or an address literal that is internal (isPublicAddress, SPECIAL_USE_TLDS). The
 * addresses a name resolves to are checked when sending (sendPush).
 */
export function isAllowedPushEndpoint(endpoint: string, allowPrivate: boolean): boolean {
  return pushTarget(endpoint, allowPrivate) !== null;
}

/** Every address of a host name, as `dns.promises.lookup(name, { all: true })` gives them. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * An agent whose connections go only to `addresses`, whatever the host name resolves to by then:
 * the name was resolved once and every address checked, so a second answer (DNS rebinding) is
 * never asked for. The request keeps the host name for TLS (SNI, certificate check) and `Host`.
 * The process's HTTPS defaults (trusted CAs…) apply; connections are not kept.
 */
function pinnedAgent(addresses: LookupAddress[]): https.Agent {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const usable = addresses.filter((a) => !options.family || a.family === options.family);
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error('no checked address of this family');
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) {
      (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
  return new https.Agent({ ...https.globalAgent.options, keepAlive: false, lookup: pinned });
}

/** What became of one push. */
export type PushOutcome =
  | { kind: 'sent' }
  /** 404 or 410, or an endpoint that is not public: the subscription is dropped for good. */
  | { kind: 'gone'; error: string }
  | { kind: 'failed'; permanent: boolean; error: string };

export interface SendPushOptions {
  /** Replaces a not yet delivered push with the same topic at the push service (≤ 32 base64url). */
  topic?: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS: the endpoint may be on any address. */
  allowPrivate?: boolean;
  /** How the host name is resolved (the system resolver unless a test passes its own). */
  resolve?: ResolveHost;
  /** Gives up on a push service that has not answered after this long, ms. */
  timeoutMs?: number;
}

/**
 * Sends one encrypted (aes128gcm) push with a VAPID Authorization header, to the address that
 * was checked: the host is resolved once, right before the push, and the push is refused
 * (`gone`, the subscription is dropped) unless every address is public; the connection then goes
 * to those addresses only (pinnedAgent), so a name which resolves inside the second time (DNS
 * rebinding) is never reached. A redirect is not followed. A name that does not resolve now is a
 * failure a retry may mend.
 */
export async function sendPush(
  vapid: VapidKeys,
  subscription: { endpoint: string; p256dh: string; auth: string },
  push: RenderedPush & { tag: string },
  {
    topic,
    allowPrivate = false,
    resolve = systemResolve,
    timeoutMs = 15_000,
  }: SendPushOptions = {},
): Promise<PushOutcome> {
  const notPublic = { kind: 'gone', error: 'endpoint not on a public address' } as const;
  const target = pushTarget(subscription.endpoint, allowPrivate);
  if (!target) return notPublic;
  let addresses: LookupAddress[];
  if (target.literal) {
    addresses = [{ address: target.host, family: isIP(target.host) }];
  } else {
    try {
      addresses = await resolve(target.host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      return { kind: 'failed', permanent: false, error: 'endpoint host does not resolve' };
    }
  }
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) return notPublic;

  const agent = pinnedAgent(addresses);
  try {
    await webpush.sendNotification(
      {
        // The WHATWG form: web-push reads it with url.parse, which would read some forms otherwise.
        endpoint: target.url.href,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      },
      JSON.stringify(push),
      {
        vapidDetails: vapid,
        contentEncoding: 'aes128gcm',
        TTL: 24 * 60 * 60,
        timeout: timeoutMs,
        agent,
        ...(topic ? { topic } : {}),
      },
    );
    return { kind: 'sent' };
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    const text = error instanceof Error ? error.message : String(error);
    if (status === 404 || status === 410) return { kind: 'gone', error: `${status}` };
    // 429 and 5xx pass; a redirect (not followed) or another 4xx can never succeed.
    const permanent = status !== undefined && status >= 300 && status < 500 && status !== 429;
    return { kind: 'failed', permanent, error: status ? `${status}: ${text}` : text };
  } finally {
    agent.destroy();
  }
}
