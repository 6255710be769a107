import { routes } from '@teltlk/client';
import { api } from './client';

/**
 * Web Push on this device: where it stands, and keeping the server's record of this
 * device's subscription in step with the person's choice.
 * - unsupported: no service worker or Push API here (or the app runs without its worker);
 * - default / denied: the browser has not been allowed to show notifications;
 * - off / on: allowed, and subscribed or not.
 */
export type PushState = 'unsupported' | 'default' | 'denied' | 'off' | 'on';

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!supported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

export async function pushState(): Promise<PushState> {
  const worker = await registration();
  if (!worker) return 'unsupported';
  if (Notification.permission !== 'granted') return Notification.permission;
  return (await worker.pushManager.getSubscription()) ? 'on' : 'off';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Subscribes this device (or renews its record) when notifications are on and allowed;
 * unsubscribes it when they are off. Safe to call at every start. A new subscription (or
 * none any more) is a sensitive action: in the `background`, with nobody to ask for a
 * step-up, it fails instead, and the settings page does it when the person is there.
 */
export async function syncPush(
  enabled: boolean,
  { background = false }: { background?: boolean } = {},
): Promise<PushState> {
  const options = { stepUp: !background };
  const worker = await registration();
  if (!worker) return 'unsupported';
  if (Notification.permission !== 'granted') return Notification.permission;
  const current = await worker.pushManager.getSubscription();
  if (!enabled) {
    if (current) {
      await api.call(routes.push.unsubscribe, {}, options);
      await current.unsubscribe();
    }
    return 'off';
  }
  const { publicKey } = await api.call(routes.push.key);
  const subscription =
    current ??
    (await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  const json = subscription.toJSON();
  await api.call(
    routes.push.subscribe,
    {
      body: {
        endpoint: subscription.endpoint,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      },
    },
    options,
  );
  return 'on';
}

/** Asks the browser for permission to show notifications (after a tap, as browsers want). */
export async function askPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!('Notification' in window)) return 'unsupported';
  return Notification.requestPermission();
}
