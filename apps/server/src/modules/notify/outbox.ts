import type { OutboxMessage } from '@teltlk/protocol';

/** How many messages the dev outbox remembers. */
export const OUTBOX_CAPACITY = 200;

/**
 * Codes that had no provider to go out through, kept in memory so a person trying the
 * app locally (or an end-to-end test) can read them. Never created in production.
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
