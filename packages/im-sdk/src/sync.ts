import { routes } from '@teltlk/client';
import {
  PULL_LIMIT_MAX,
  SYNC_CONVERSATIONS_LIMIT_MAX,
  type Conversation,
  type ConversationSyncResult,
  type Message,
  type UserEvent,
} from '@teltlk/protocol';
import type { ApiClient } from '@teltlk/client';

/** Conversations one sync call asks for. */
export const CONVERSATION_PAGE = Math.min(500, SYNC_CONVERSATIONS_LIMIT_MAX);

/** A page of messages with its seq bounds (null when empty). */
export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
  minSeq: number | null;
  maxSeq: number | null;
}

function bounded(messages: Message[], hasMore: boolean): MessagePage {
  let minSeq: number | null = null;
  let maxSeq: number | null = null;
  for (const { seq } of messages) {
    if (minSeq === null || seq < minSeq) minSeq = seq;
    if (maxSeq === null || seq > maxSeq) maxSeq = seq;
  }
  return { messages, hasMore, minSeq, maxSeq };
}

/**
 * Pulls every conversation changed after `since`, page by page, handing each page to
 * `apply` before asking for the next. Returns the `syncedAt` to keep: the earliest of
 * the pages, so a change that raced a later page is asked for again next time.
 */
export async function pullConversations(
  api: ApiClient,
  since: number,
  apply: (conversations: Conversation[]) => Promise<void>,
): Promise<number> {
  let cursor: string | null = null;
  let syncedAt = Number.POSITIVE_INFINITY;
  do {
    const page: ConversationSyncResult = await api.call(routes.messages.syncConversations, {
      query: { since, cursor: cursor ?? undefined, limit: CONVERSATION_PAGE },
    });
    await apply(page.conversations);
    syncedAt = Math.min(syncedAt, page.syncedAt);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return syncedAt;
}

/** Pulls the user's events after `last()` until the server has no more. */
export async function pullEventPages(
  api: ApiClient,
  last: () => number,
  apply: (events: UserEvent[]) => Promise<void>,
): Promise<void> {
  for (;;) {
    const page = await api.call(routes.events.page, {
      query: { after: last(), limit: PULL_LIMIT_MAX },
    });
    await apply(page.events);
    if (!page.hasMore || page.events.length === 0) return;
  }
}

export async function pullNewestPage(
  api: ApiClient,
  conversationId: string,
  limit: number,
): Promise<MessagePage> {
  const page = await api.call(routes.messages.page, {
    params: { id: conversationId },
    query: { limit },
  });
  return bounded(page.messages, page.hasMore);
}

export async function pullAfter(
  api: ApiClient,
  conversationId: string,
  after: number,
  limit: number,
): Promise<MessagePage> {
  const page = await api.call(routes.messages.page, {
    params: { id: conversationId },
    query: { after, limit },
  });
  return bounded(page.messages, page.hasMore);
}

export async function pullOlderPage(
  api: ApiClient,
  conversationId: string,
  before: number,
  limit: number,
): Promise<MessagePage> {
  const page = await api.call(routes.messages.page, {
    params: { id: conversationId },
    query: { before, limit },
  });
  return bounded(page.messages, page.hasMore);
}
