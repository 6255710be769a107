import webpush from 'web-push';
import type { VapidKeys } from './vapid.js';

/** Where a push goes: a browser's subscription with the keys that encrypt for it. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  /** Seconds the push service keeps it for a device that is away. */
  ttlSeconds: number;
  /** A newer push with the same topic replaces one not yet delivered (RFC 8030). */
  topic?: string;
  urgency: 'normal' | 'high';
}

/** What became of a push: delivered to the push service, or the subscription is gone. */
export type PushResult = 'sent' | 'gone';

export interface PushSender {
  send(target: PushTarget, payload: string, options: PushOptions): Promise<PushResult>;
}

/**
 * Web Push over HTTP (RFC 8030) with VAPID (RFC 8292) and the aes128gcm payload
 * encryption of RFC 8291: the `web-push` library signs and encrypts, the request itself
 * goes out with fetch (push services are https; a push service on loopback, in tests and
 * development, may be plain http). A push service that answers 404 or 410 has dropped the
 * subscription; other failures are thrown.
 */
export class WebPushSender implements PushSender {
  constructor(
    private readonly keys: VapidKeys,
    /** The `sub` of the VAPID claim: how the push service reaches the operator. */
    private readonly subject: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(target: PushTarget, payload: string, options: PushOptions): Promise<PushResult> {
    const request = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      payload,
      {
        vapidDetails: { subject: this.subject, ...this.keys },
        TTL: options.ttlSeconds,
        urgency: options.urgency,
        ...(options.topic ? { topic: options.topic } : {}),
        contentEncoding: 'aes128gcm',
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
    const response = await fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return 'gone';
    if (!response.ok) throw new Error(`push service answered ${response.status}`);
    return 'sent';
  }
}
