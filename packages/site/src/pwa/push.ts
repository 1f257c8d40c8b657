import type { PushSubscriptionInput } from '@poruch/core';
import type { AlertPushOffer } from '@poruch/widgets';
import type { AppServices } from '../app/services.js';
import { isStandalone } from './install.js';

/** True when this browser can subscribe to push messages. */
export const pushSupported = (): boolean =>
  'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const padded = (value + '='.repeat((4 - (value.length % 4)) % 4))
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Asks for the notification permission (call it from a user's tap) and subscribes this browser
 * to push with the server's VAPID key. Null when the permission is not granted.
 */
async function browserPushSubscription(vapidPublicKey: string): Promise<PushSubscription | null> {
  if ((await Notification.requestPermission()) !== 'granted') return null;
  const registration = await navigator.serviceWorker.ready;
  return (
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(vapidPublicKey),
    }))
  );
}

/**
 * Subscribes this browser to push (browserPushSubscription) and sends the subscription to
 * `auth/notifications`. Resolves to the permission state.
 */
export async function subscribeToPush(
  services: Pick<AppServices, 'api'>,
  vapidPublicKey: string,
): Promise<NotificationPermission> {
  const subscription = await browserPushSubscription(vapidPublicKey);
  if (!subscription) return Notification.permission;
  await services.api.notifications(subscription);
  return 'granted';
}

/**
 * The alert dialog's "Also notify me on this device": offered by the installed app only (running
 * standalone, on a browser that can push, with the server's key); a widget never offers it.
 */
export function alertPushOffer(
  vapidPublicKey: string | null | undefined,
): AlertPushOffer | undefined {
  if (!vapidPublicKey || !isStandalone() || !pushSupported()) return undefined;
  return {
    subscribe: async () => {
      const subscription = await browserPushSubscription(vapidPublicKey);
      return subscription ? (subscription.toJSON() as PushSubscriptionInput) : null;
    },
  };
}
