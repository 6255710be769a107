import { Rerun } from './rerun.js';
import type { ClientFrame, Message } from '@teltlk/protocol';
import { backoffDelay } from './connection.js';
import type { LocalStore } from './store.js';

/** Error codes worth sending again later; any other refusal is final for that message. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'RATE_LIMITED',
  'INTERNAL',
  'NETWORK_ERROR',
  'TIMEOUT',
  'FEATURE_UNAVAILABLE',
]);

/** A fresh client message id: 128 random bits, URL-safe (22 characters). */
export function newClientMsgId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface OutboxDeps {
  store: () => LocalStore | null;
  /** Sends a frame on the authenticated socket; false when there is none. */
  send(frame: ClientFrame): boolean;
  /** Applies the answer; the entry leaves the table when the returned promise settles. */
  onAck(clientMsgId: string, message: Message): Promise<void>;
  onFailed(clientMsgId: string, code: string): Promise<void>;
  random?: () => number;
}

/**
 * Sends the outbox table in order over the socket. An entry leaves the table only when
 * the server answered for it (ack or a final error): a lost connection leaves it queued
 * and it goes again, with the same clientMsgId, after reconnecting.
 */
export class OutboxSender {
  /** rid -> clientMsgId of frames sent on the current socket and not answered yet. */
  private readonly inflight = new Map<string, string>();
  /** Answered, with the outbox row not yet removed: not to be sent again meanwhile. */
  private readonly settling = new Set<string>();
  private nextRid = 0;
  /** One pass over the queue at a time; asked during one, it looks once more. */
  private readonly sends = new Rerun(() => this.sendQueued());
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private transientAttempt = 0;

  constructor(private readonly deps: OutboxDeps) {}

  /** Sends every queued entry that is not on its way; safe to call often. */
  flush(): Promise<void> {
    return this.sends.run();
  }

  private async sendQueued(): Promise<void> {
    const store = this.deps.store();
    if (!store) return;
    const entries = await store.outbox.orderBy('id').toArray();
    const onTheWay = new Set(this.inflight.values());
    for (const entry of entries) {
      if (onTheWay.has(entry.clientMsgId) || this.settling.has(entry.clientMsgId)) continue;
      // Media goes once its upload is done (the upload queue's work).
      if (entry.upload) continue;
      const rid = `r${++this.nextRid}`;
      // Registered before sending: an answer may be handled before send() returns.
      this.inflight.set(rid, entry.clientMsgId);
      const sent = this.deps.send({
        t: 'send',
        rid,
        conversationId: entry.conversationId,
        clientMsgId: entry.clientMsgId,
        content: entry.content,
      });
      if (!sent) {
        this.inflight.delete(rid);
        return;
      }
    }
  }

  /** Whether the answer belonged to one of our sends. */
  handleAck(rid: string, message: Message): boolean {
    const clientMsgId = this.inflight.get(rid);
    if (clientMsgId === undefined) return false;
    this.inflight.delete(rid);
    this.transientAttempt = 0;
    this.settle(clientMsgId, () => this.deps.onAck(clientMsgId, message));
    return true;
  }

  handleError(rid: string | null, code: string): boolean {
    const clientMsgId = rid === null ? undefined : this.inflight.get(rid);
    if (rid === null || clientMsgId === undefined) return false;
    this.inflight.delete(rid);
    if (TRANSIENT_CODES.has(code)) {
      // Stays queued; try again after a backoff rather than hammering a busy server.
      if (!this.retryTimer) {
        const delay = backoffDelay(this.transientAttempt++, this.deps.random);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          void this.flush();
        }, delay);
      }
    } else {
      this.settle(clientMsgId, () => this.deps.onFailed(clientMsgId, code));
    }
    return true;
  }

  private settle(clientMsgId: string, apply: () => Promise<void>): void {
    this.settling.add(clientMsgId);
    void apply()
      .catch((error: unknown) => console.error(error))
      .finally(() => this.settling.delete(clientMsgId));
  }

  /** The socket is gone: whatever was on its way goes again on the next one. */
  reset(): void {
    this.inflight.clear();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }
}
