import {
  REVOKE_WINDOW_SECONDS,
  peerOf,
  singleConversationId,
  type Conversation,
  type ConversationSyncResult,
  type Message,
  type MessageContent,
  type MessagePageQuery,
  type MessagePageResult,
  type SendMessageBody,
  type UpdateConversationBody,
  type UserCard,
} from '@teltlk/protocol';
import type { Db, MemberRow, MessageRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { Hub } from '../../realtime/hub.js';
import type { ContactService } from '../contacts/service.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { MemberView, MessageRepo } from './repo.js';

/**
 * syncedAt is this much before the query: a change written by a transaction that began
 * before the query but committed after it carries an earlier updated_at, and must still
 * be newer than the syncedAt the client keeps. Clients apply conversations idempotently,
 * so seeing a few twice costs nothing.
 */
export const SYNC_SAFETY_MS = 10 * SECOND;

/** Recipients of an announcement to everyone are read in batches of this many. */
const OFFICIAL_POST_BATCH = 500;

/** What came of an operator's announcement. */
export interface OfficialPostResult {
  sent: number;
  /** Recipients who blocked the official account, or no longer exist. */
  refused: number;
}

interface SyncCursor {
  /** syncedAt of the first page, kept for every page of one sync. */
  s: number;
  /** The last conversation id of the previous page. */
  a: string;
}

/**
 * Conversations and messages: sending with a gap-free per-conversation seq, idempotent by
 * the sender's client message id; pulls; revoke, delete for me, read marks, chat settings,
 * burn after reading; and conversation sync. Every change is pushed after its commit.
 */
export class MessageService {
  constructor(
    private readonly deps: {
      db: Db;
      repo: MessageRepo;
      clock: Clock;
      hub: Hub;
      events: EventService;
      contacts: ContactService;
    },
  ) {}

  // -------------------------------------------------------------------------- sending

  /**
   * Stores the message once and pushes it to every member's sockets. A retry with the
   * same client message id returns the stored message (also when it races the first).
   */
  async send(userId: string, body: SendMessageBody): Promise<Message> {
    const { db, repo, clock } = this.deps;
    const stored = await repo.findByClientMsgId(userId, body.clientMsgId);
    if (stored) return replayed(stored, body.conversationId);
    let row: MessageRow;
    try {
      row = await db.transaction().execute(async (trx) => {
        await this.checkCanWrite(trx, userId, body.conversationId);
        return this.append(
          trx,
          userId,
          body.conversationId,
          body.clientMsgId,
          body.content,
          clock.now(),
        );
      });
    } catch (error) {
      // A concurrent retry stored it first: the unique key on (sender, client id) refused ours.
      const raced = await repo.findByClientMsgId(userId, body.clientMsgId);
      if (raced) return replayed(raced, body.conversationId);
      throw error;
    }
    const message = toMessage(row);
    await this.push(row.conversation_id, { t: 'message', message });
    return message;
  }

  /**
   * Posts as an official account into its single conversation with each recipient, or
   * with every regular user (`all`, in batches). Recipients who blocked it are counted,
   * not failed.
   */
  async postAsOfficial(
    officialId: string,
    to: readonly string[] | 'all',
    text: string,
  ): Promise<OfficialPostResult> {
    const result: OfficialPostResult = { sent: 0, refused: 0 };
    const post = async (recipientIds: readonly string[]) => {
      for (const recipientId of recipientIds) {
        if (recipientId === officialId) continue;
        try {
          await this.send(officialId, {
            conversationId: singleConversationId(officialId, recipientId),
            clientMsgId: `op-${newId()}`,
            content: { kind: 'text', text },
          });
          result.sent += 1;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          result.refused += 1;
        }
      }
    };
    if (to !== 'all') {
      await post(to);
      return result;
    }
    let after = '';
    for (;;) {
      const batch = await this.deps.repo.regularUserIds(after, OFFICIAL_POST_BATCH);
      await post(batch);
      const last = batch.at(-1);
      if (last === undefined || batch.length < OFFICIAL_POST_BATCH) return result;
      after = last;
    }
  }

  /**
   * Who may write: in a single conversation both people, while the recipient has not
   * blocked the sender and they may message each other (checked on every write, so a
   * block after the conversation began still refuses); the first message creates the
   * conversation. In any other conversation, members only. Anything else looks absent.
   */
  private async checkCanWrite(trx: Db, userId: string, conversationId: string): Promise<void> {
    const repo = this.deps.repo.in(trx);
    const peerId = singlePeer(conversationId, userId);
    if (peerId) {
      await this.deps.contacts.checkCanMessage(userId, peerId, trx);
      if (!(await repo.findMember(conversationId, userId))) {
        await repo.createConversation(
          conversationId,
          'single',
          [userId, peerId],
          this.deps.clock.now(),
        );
      }
      return;
    }
    await this.memberOf(trx, conversationId, userId);
  }

  /** Appends a message (or notice) with the next seq, in the caller's transaction. */
  private async append(
    trx: Db,
    senderId: string,
    conversationId: string,
    clientMsgId: string,
    content: MessageContent,
    now: number,
  ): Promise<MessageRow> {
    const repo = this.deps.repo.in(trx);
    const { max_seq, burn_seconds } = await repo.allocateSeq(conversationId, now);
    const row: MessageRow = {
      id: newId(),
      conversation_id: conversationId,
      seq: Number(max_seq),
      sender_id: senderId,
      client_msg_id: clientMsgId,
      content: JSON.stringify(content),
      created_at: now,
      revoked_at: null,
      burn_at: null,
      // Notices never burn: they are how both sides learn of a change.
      burn_seconds: content.kind === 'text' ? Number(burn_seconds) : 0,
    };
    await repo.insertMessage(row);
    await repo.unhideMembers(conversationId, now);
    return row;
  }

  // -------------------------------------------------------------------------- reading

  async page(
    userId: string,
    conversationId: string,
    query: MessagePageQuery,
  ): Promise<MessagePageResult> {
    const { db, repo, clock } = this.deps;
    const member = await this.memberOf(db, conversationId, userId);
    const { rows, hasMore } = await repo.page(
      userId,
      conversationId,
      member.min_seq,
      clock.now(),
      query,
    );
    return { messages: rows.map(toMessage), hasMore };
  }

  /** Moves the caller's read mark forward (never back); the other person learns it at once. */
  async read(userId: string, conversationId: string, seq: number): Promise<void> {
    await this.transact(async (trx, events, after) => {
      const member = await this.memberOf(trx, conversationId, userId);
      if (!(await this.markRead(trx, member, seq, after))) return;
      events.push(await this.conversationEvent(trx, userId, conversationId));
    });
  }

  /**
   * read_seq up to `seq` (at most max_seq), the burn clock of what was read, and for a
   * single conversation a newer updated_at so the other person's sync sees peerReadSeq.
   */
  private async markRead(
    trx: Db,
    member: MemberRow,
    seq: number,
    after: (() => void)[],
  ): Promise<boolean> {
    const repo = this.deps.repo.in(trx);
    const { conversation_id: conversationId, user_id: userId } = member;
    const conversation = await repo.findConversation(conversationId);
    const upTo = Math.min(seq, Number(conversation?.max_seq ?? 0));
    if (upTo <= Number(member.read_seq)) return false;
    const now = this.deps.clock.now();
    const peerId = singlePeer(conversationId, userId);
    // Rows are locked in one order everywhere (conversation, member, messages), so
    // concurrent sends and reads on PostgreSQL never deadlock.
    if (peerId) await repo.touchConversation(conversationId, now);
    if (!(await repo.advanceRead(conversationId, userId, upTo, now))) return false;
    await repo.startBurn(conversationId, userId, upTo, now);
    if (peerId) {
      after.push(() =>
        this.deps.hub.toUsers([peerId], { t: 'read', conversationId, userId, seq: upTo }),
      );
    }
    return true;
  }

  // -------------------------------------------------------------------------- changing messages

  /** Revokes the caller's own message within the window: a `revoke` notice tells everyone. */
  async revoke(userId: string, conversationId: string, seq: number): Promise<Message> {
    const noticeRow = await this.transact(async (trx, _events, after) => {
      const repo = this.deps.repo.in(trx);
      const now = this.deps.clock.now();
      const member = await this.memberOf(trx, conversationId, userId);
      const target = await repo.findMessage(conversationId, seq);
      if (!target || seq <= member.min_seq || isBurnt(target, now)) {
        throw new AppError('MESSAGE_NOT_FOUND');
      }
      const content = JSON.parse(target.content) as MessageContent;
      if (target.sender_id !== userId || content.kind !== 'text') {
        throw new AppError('REVOKE_NOT_ALLOWED');
      }
      // One notice per message, keyed like a client id, so a repeated revoke returns it.
      const noticeId = `revoke-${target.id}`;
      if (target.revoked_at !== null) {
        const notice = await repo.findByClientMsgId(userId, noticeId);
        if (notice) return notice;
      }
      if (now - target.created_at > REVOKE_WINDOW_SECONDS * SECOND) {
        throw new AppError('REVOKE_EXPIRED', { minutes: REVOKE_WINDOW_SECONDS / 60 });
      }
      // The notice first: it locks the conversation row before the message row, as reads do.
      const notice = await this.append(
        trx,
        userId,
        conversationId,
        noticeId,
        { kind: 'revoke', targetSeq: seq },
        now,
      );
      await repo.setRevoked(conversationId, seq, now);
      after.push(() => void this.pushLater(conversationId, notice));
      return notice;
    });
    return toMessage(noticeRow);
  }

  /** Deletes a message for the caller only; their other devices learn it from the event stream. */
  async hide(userId: string, conversationId: string, seq: number): Promise<void> {
    await this.transact(async (trx, events) => {
      const repo = this.deps.repo.in(trx);
      const now = this.deps.clock.now();
      const member = await this.memberOf(trx, conversationId, userId);
      const target = await repo.findMessage(conversationId, seq);
      if (!target || seq <= member.min_seq || isBurnt(target, now)) {
        throw new AppError('MESSAGE_NOT_FOUND');
      }
      if (await repo.insertHide(userId, conversationId, seq, now)) {
        events.push(
          await this.deps.events.append(trx, userId, {
            type: 'messageHidden',
            conversationId,
            seq,
          }),
        );
      }
    });
  }

  // -------------------------------------------------------------------------- chat settings

  /** Pin, mute, or delete from the chat list (which also marks everything read). */
  async update(
    userId: string,
    conversationId: string,
    patch: UpdateConversationBody,
  ): Promise<Conversation> {
    if (patch.pinned === undefined && patch.muted === undefined && patch.hidden === undefined) {
      throw invalidField('', 'required');
    }
    return this.transact(async (trx, events, after) => {
      const member = await this.memberOf(trx, conversationId, userId);
      // A chat deleted from the list leaves nothing counted as unread behind.
      if (patch.hidden === true) await this.markRead(trx, member, Number.MAX_SAFE_INTEGER, after);
      await this.deps.repo.in(trx).updateMember(conversationId, userId, {
        ...(patch.pinned === undefined ? {} : { pinned: patch.pinned ? 1 : 0 }),
        ...(patch.muted === undefined ? {} : { muted: patch.muted ? 1 : 0 }),
        ...(patch.hidden === undefined ? {} : { hidden: patch.hidden ? 1 : 0 }),
        updated_at: this.deps.clock.now(),
      });
      const event = await this.conversationEvent(trx, userId, conversationId);
      events.push(event);
      return conversationOf(event);
    });
  }

  /** Clears the history for the caller only: messages up to now stay hidden from them. */
  async clear(userId: string, conversationId: string): Promise<Conversation> {
    return this.transact(async (trx, events, after) => {
      const repo = this.deps.repo.in(trx);
      const member = await this.memberOf(trx, conversationId, userId);
      const conversation = await repo.findConversation(conversationId);
      const maxSeq = Number(conversation?.max_seq ?? 0);
      // Cleared messages are not left counted as unread.
      await this.markRead(trx, member, maxSeq, after);
      await repo.updateMember(conversationId, userId, {
        min_seq: maxSeq,
        updated_at: this.deps.clock.now(),
      });
      const event = await this.conversationEvent(trx, userId, conversationId);
      events.push(event);
      return conversationOf(event);
    });
  }

  /**
   * Burn after reading in a single conversation: messages sent from now on disappear for
   * both once read plus `seconds`. A `burn` notice tells both sides' devices.
   */
  async setBurn(userId: string, conversationId: string, seconds: number): Promise<Message> {
    const row = await this.transact(async (trx, _events, after) => {
      const peerId = singlePeer(conversationId, userId);
      await this.memberOf(trx, conversationId, userId);
      if (!peerId) throw invalidField('seconds', 'burn');
      await this.deps.contacts.checkCanMessage(userId, peerId, trx);
      await this.deps.repo.in(trx).setBurnSeconds(conversationId, seconds);
      const notice = await this.append(
        trx,
        userId,
        conversationId,
        `burn-${newId()}`,
        { kind: 'burn', seconds },
        this.deps.clock.now(),
      );
      after.push(() => void this.pushLater(conversationId, notice));
      return notice;
    });
    return toMessage(row);
  }

  /** Relays a typing hint to the other person of a single conversation. */
  async typing(userId: string, conversationId: string): Promise<void> {
    const peerId = singlePeer(conversationId, userId);
    if (!peerId) return;
    if (!(await this.deps.repo.findMember(conversationId, userId))) return;
    try {
      await this.deps.contacts.checkCanMessage(userId, peerId);
    } catch (error) {
      if (error instanceof AppError) return;
      throw error;
    }
    this.deps.hub.toUsers([peerId], { t: 'typing', conversationId, userId });
  }

  // -------------------------------------------------------------------------- sync

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

  /** Deletes messages whose burn time has passed (pulls leave them out already). */
  purgeBurnt(): Promise<number> {
    return this.deps.repo.deleteBurnt(this.deps.clock.now());
  }

  // -------------------------------------------------------------------------- helpers

  /** The caller's member row; a conversation they are not in looks absent. */
  private async memberOf(db: Db, conversationId: string, userId: string): Promise<MemberRow> {
    const member = await this.deps.repo.in(db).findMember(conversationId, userId);
    if (!member) throw new AppError('CONVERSATION_NOT_FOUND');
    return member;
  }

  /** The caller's full view of a conversation, appended to their event stream. */
  private async conversationEvent(
    trx: Db,
    userId: string,
    conversationId: string,
  ): Promise<PendingEvent> {
    const row = await this.deps.repo.in(trx).memberView(conversationId, userId);
    if (!row) throw new AppError('CONVERSATION_NOT_FOUND');
    const [conversation] = await this.views(trx, userId, [row]);
    if (!conversation) throw new AppError('CONVERSATION_NOT_FOUND');
    return this.deps.events.append(trx, userId, { type: 'conversation', conversation });
  }

  /** Conversations as the caller sees them: peer card, peer's read mark, last visible message. */
  private async views(
    db: Db,
    userId: string,
    rows: readonly MemberView[],
  ): Promise<Conversation[]> {
    const repo = this.deps.repo.in(db);
    const now = this.deps.clock.now();
    const peers = new Map<string, string>();
    for (const row of rows) {
      const peerId = singlePeer(row.conversation_id, userId);
      if (peerId) peers.set(row.conversation_id, peerId);
    }
    const [cards, reads, lasts] = await Promise.all([
      this.deps.contacts.cards([...peers.values()], db),
      repo.otherMembersReadSeqs([...peers.keys()], userId),
      Promise.all(
        rows.map((row) => repo.lastVisible(userId, row.conversation_id, row.min_seq, now)),
      ),
    ]);
    const peerRead = new Map(reads.map((read) => [read.conversation_id, Number(read.read_seq)]));
    return rows.map((row, index) => {
      const peerId = peers.get(row.conversation_id);
      const last = lasts[index];
      return toConversation(
        row,
        peerId ? (cards.get(peerId) ?? null) : null,
        peerRead.get(row.conversation_id) ?? 0,
        last ? toMessage(last) : null,
      );
    });
  }

  /**
   * Runs `work` in a transaction; after commit, publishes the events it appended and runs
   * the pushes it queued (a push before commit could announce what then rolls back).
   */
  private async transact<T>(
    work: (trx: Db, events: PendingEvent[], after: (() => void)[]) => Promise<T>,
  ): Promise<T> {
    const events: PendingEvent[] = [];
    const after: (() => void)[] = [];
    const result = await this.deps.db.transaction().execute((trx) => work(trx, events, after));
    this.deps.events.publish(events);
    for (const run of after) run();
    return result;
  }

  /** Pushes a committed message to the sockets of every member (the sender's other devices too). */
  private async push(
    conversationId: string,
    frame: { t: 'message'; message: Message },
  ): Promise<void> {
    const memberIds = await this.memberIds(conversationId);
    this.deps.hub.toUsers(memberIds, frame);
  }

  private async pushLater(conversationId: string, row: MessageRow): Promise<void> {
    try {
      await this.push(conversationId, { t: 'message', message: toMessage(row) });
    } catch {
      // Pushes are hints; clients catch up by sync.
    }
  }

  private async memberIds(conversationId: string): Promise<string[]> {
    const match = /^si_([^_]+)_([^_]+)$/.exec(conversationId);
    if (match) return [match[1]!, match[2]!];
    return (await this.deps.repo.members(conversationId)).map((member) => member.user_id);
  }
}

/** The other person of a single conversation the caller is part of; null otherwise. */
function singlePeer(conversationId: string, userId: string): string | null {
  const peerId = peerOf(conversationId, userId);
  return peerId === null || peerId === userId ? null : peerId;
}

function isBurnt(row: MessageRow, now: number): boolean {
  return row.burn_at !== null && row.burn_at <= now;
}

/** A stored message for a retried send; the same client id in another conversation is a client bug. */
function replayed(row: MessageRow, conversationId: string): Message {
  if (row.conversation_id !== conversationId) throw invalidField('clientMsgId', 'clientMsgId');
  return toMessage(row);
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: Number(row.seq),
    senderId: row.sender_id,
    clientMsgId: row.client_msg_id,
    content:
      row.revoked_at === null ? (JSON.parse(row.content) as MessageContent) : { kind: 'revoked' },
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    burnAt: row.burn_at === null ? null : Number(row.burn_at),
  };
}

function toConversation(
  row: MemberView,
  peer: UserCard | null,
  peerReadSeq: number,
  lastMessage: Message | null,
): Conversation {
  return {
    id: row.conversation_id,
    kind: row.kind === 'group' ? 'group' : 'single',
    peer,
    maxSeq: Number(row.max_seq),
    readSeq: Number(row.read_seq),
    minSeq: Number(row.min_seq),
    peerReadSeq,
    pinned: row.pinned === 1,
    muted: row.muted === 1,
    hidden: row.hidden === 1,
    burnSeconds: Number(row.burn_seconds),
    lastMessage,
    updatedAt: Math.max(Number(row.updated_at), Number(row.conversation_updated_at)),
  };
}

function conversationOf(event: PendingEvent): Conversation {
  if (event.event.data.type !== 'conversation') throw new Error('not a conversation event');
  return event.event.data.conversation;
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

/**
 * A send refused for blank text answers BLANK_MESSAGE ('Cannot send blank message'), as
 * the spec words it, rather than a generic validation error.
 */
export function blankAware(error: AppError): AppError {
  if (
    error.code === 'VALIDATION_FAILED' &&
    error.issues?.some((issue) => issue.rule === 'blankMessage')
  ) {
    return new AppError('BLANK_MESSAGE', undefined, error.issues);
  }
  return error;
}
