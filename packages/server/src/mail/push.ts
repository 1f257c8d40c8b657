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
