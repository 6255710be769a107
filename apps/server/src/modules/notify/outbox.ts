import type { OutboxMessage } from '@teltlk/protocol';

/** How many messages the dev outbox remembers. */
export const OUTBOX_CAPACITY = 200;

/**
 * Codes and notices of channels that have no provider, kept in memory so a person trying the app on
 * their own machine (or an end-to-end test) can read them; its routes answer loopback
 * requests only. Never created in production, nor when every channel has a provider.
 */
export class DevOutbox {
  private readonly messages: OutboxMessage[] = [];

  add(message: OutboxMessage): void {
    this.messages.unshift(message);
    if (this.messages.length > OUTBOX_CAPACITY) this.messages.length = OUTBOX_CAPACITY;
  }

  /** Newest first. */
  list(): OutboxMessage[] {
    return [...this.messages];
  }
}
