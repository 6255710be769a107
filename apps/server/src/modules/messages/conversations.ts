import {
  groupConversationId,
  groupIdOf,
  isQuoteAvailable,
  type Conversation,
  type ConversationSyncResult,
  type GroupBrief,
  type Message,
  type MessagePageQuery,
  type MessagePageResult,
} from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import type { ContactService } from '../contacts/service.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { FileStore } from '../files/store.js';
import type { GroupReads } from './directory.js';
import type { MemberView } from './members-repo.js';
import type { MessageRepo } from './repo.js';
import { isBurnt, singlePeer, toConversation, toMessage } from './rows.js';
import { memberOf } from './transaction.js';
import { messageFor, withoutQuote } from './visibility.js';

/**
 * syncedAt is this much before the query: a change written by a transaction that began
 * before the query but committed after it carries an earlier updated_at, and must still
 * be newer than the syncedAt the client keeps. Clients apply conversations idempotently,
 * so seeing a few twice costs nothing.
 */
export const SYNC_SAFETY_MS = 10 * SECOND;

interface SyncCursor {
  /** syncedAt of the first page, kept for every page of one sync. */
  s: number;
  /** The last conversation id of the previous page. */
  a: string;
}

/**
 * Conversations and messages as a member sees them: conversation sync in pages of a
 * stable order, one conversation's view, and pages of messages, each within the reader's
 * history (after their clear mark, without what is revoked or burnt).
 */
export class ConversationViews {
  constructor(
    private readonly deps: {
      db: Db;
      repo: MessageRepo;
      clock: Clock;
      events: EventService;
      contacts: ContactService;
      files: FileStore;
      groups: GroupReads;
    },
  ) {}

  async page(
    userId: string,
    conversationId: string,
    query: MessagePageQuery,
  ): Promise<MessagePageResult> {
    const { db, repo, clock } = this.deps;
    const member = await memberOf(repo, db, conversationId, userId);
    const now = clock.now();
    const minSeq = Number(member.min_seq);
    const { rows, hasMore } = await repo.page(userId, conversationId, minSeq, now, query);
    const messages = await this.readable(
      db,
      rows.map((row) => ({ message: toMessage(row), minSeq })),
      now,
    );
    return { messages: messages.filter((message) => message !== null), hasMore };
  }

  /**
   * Messages as members whose history starts after each `minSeq` may read them
   * (messageFor), with quotes of messages since revoked, burnt or gone shown as
   * unavailable (one look-up for all).
   */
  async readable(
    db: Db,
    entries: readonly { message: Message; minSeq: number }[],
    now: number,
  ): Promise<(Message | null)[]> {
    const views = entries.map(({ message, minSeq }) => messageFor(message, minSeq));
    const quoted = views.map((message) => {
      const quote = message?.content.kind === 'text' ? message.content.quote : undefined;
      return quote && isQuoteAvailable(quote)
        ? ([message!.conversationId, quote.seq] as const)
        : null;
    });
    const pairs = quoted.filter((pair) => pair !== null);
    if (pairs.length === 0) return views;
    const live = new Set(
      (await this.deps.repo.in(db).messagesAt(pairs))
        .filter((row) => row.revoked_at === null && !isBurnt(row, now))
        .map((row) => `${row.conversation_id}\n${row.seq}`),
    );
    return views.map((message, index) => {
      const pair = quoted[index];
      return message && pair && !live.has(`${pair[0]}\n${pair[1]}`)
        ? withoutQuote(message)
        : message;
    });
  }

  /** The caller's conversations changed after `since`, in pages of a stable order. */
  async sync(
    userId: string,
    query: { since: number; cursor?: string | undefined; limit: number },
  ): Promise<ConversationSyncResult> {
    const { db, repo, clock } = this.deps;
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const syncedAt = cursor?.s ?? Math.max(0, clock.now() - SYNC_SAFETY_MS);
    const rows = await repo.changedSince(userId, query.since, cursor?.a ?? null, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      conversations: await this.views(db, userId, page),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({ s: syncedAt, a: last.conversation_id })
          : null,
      syncedAt,
    };
  }

  /** The caller's full view of a conversation, appended to their event stream. */
  async conversationEvent(trx: Db, userId: string, conversationId: string): Promise<PendingEvent> {
    const row = await this.deps.repo.in(trx).memberView(conversationId, userId);
    if (!row) throw new AppError('CONVERSATION_NOT_FOUND');
    const [conversation] = await this.views(trx, userId, [row]);
    if (!conversation) throw new AppError('CONVERSATION_NOT_FOUND');
    return this.deps.events.append(trx, userId, { type: 'conversation', conversation });
  }

  /** Conversations as the caller sees them: peer card, peer's read mark, last visible message. */
  async views(db: Db, userId: string, rows: readonly MemberView[]): Promise<Conversation[]> {
    const repo = this.deps.repo.in(db);
    const now = this.deps.clock.now();
    const peers = new Map<string, string>();
    const groupIds: string[] = [];
    for (const row of rows) {
      const peerId = singlePeer(row.conversation_id, userId);
      if (peerId) peers.set(row.conversation_id, peerId);
      const groupId = groupIdOf(row.conversation_id);
      if (groupId !== null) groupIds.push(groupId);
    }
    const [groups, cards, reads, lastRows] = await Promise.all([
      this.deps.groups.groupsByIds(groupIds, db),
      this.deps.contacts.cards([...peers.values()], db),
      repo.otherMembersReadSeqs([...peers.keys()], userId),
      repo.lastVisibleMany(
        userId,
        rows.map((row) => ({ conversationId: row.conversation_id, minSeq: Number(row.min_seq) })),
        now,
      ),
    ]);
    const minSeqOf = new Map(rows.map((row) => [row.conversation_id, Number(row.min_seq)]));
    const lasts = await this.readable(
      db,
      lastRows.map((last) => ({
        message: toMessage(last),
        minSeq: minSeqOf.get(last.conversation_id)!,
      })),
      now,
    );
    const lastOf = new Map(
      lasts.flatMap((message) => (message ? [[message.conversationId, message]] : [])),
    );
    const peerRead = new Map(reads.map((read) => [read.conversation_id, Number(read.read_seq)]));
    const briefs = new Map<string, GroupBrief>(
      groups.map((group) => [
        groupConversationId(group.id),
        {
          id: group.id,
          name: group.name,
          avatarUrl: group.avatar_path ? this.deps.files.urlOf(group.avatar_path) : null,
          memberCount: Number(group.member_count),
        },
      ]),
    );
    return rows.map((row) => {
      const peerId = peers.get(row.conversation_id);
      return toConversation(
        row,
        peerId ? (cards.get(peerId) ?? null) : null,
        briefs.get(row.conversation_id) ?? null,
        peerRead.get(row.conversation_id) ?? 0,
        lastOf.get(row.conversation_id) ?? null,
      );
    });
  }
}

function encodeCursor(cursor: SyncCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(value: string): SyncCursor {
  try {
    const parsed = JSON.parse(
      Buffer.from(value, 'base64url').toString('utf8'),
    ) as Partial<SyncCursor>;
    if (
      typeof parsed.s === 'number' &&
      Number.isInteger(parsed.s) &&
      typeof parsed.a === 'string'
    ) {
      return { s: parsed.s, a: parsed.a };
    }
  } catch {
    // Falls through to the validation error.
  }
  throw invalidField('cursor', 'invalid');
}
