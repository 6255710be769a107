import {
  EDIT_WINDOW_SECONDS,
  REVOKE_WINDOW_SECONDS,
  type Conversation,
  type Message,
  type MessageContent,
  type UpdateConversationBody,
  isSentContent,
} from '@teltlk/protocol';
import type { Db, MemberRow, MessageRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { ContactService } from '../contacts/service.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { RateLimiter } from '../limits/limiter.js';
import { forgetTranslations } from '../translation/port.js';
import type { Appender } from './append.js';
import type { ConversationViews } from './conversations.js';
import type { Delivery } from './delivery.js';
import type { MessageRepo } from './repo.js';
import { conversationOf, isBurnt, singlePeer, toMessage } from './rows.js';
import { searchColumns } from './search-text.js';
import { memberOf, transact, type AfterCommit } from './transaction.js';

/**
 * What members change in a conversation after its messages are sent: read marks, revoke,
 * edit, delete for me, chat settings (pin, mute, hide, translation), clearing the history, burn
 * after reading, typing hints; and the purge of burnt messages.
 */
export class ChatChanges {
  constructor(
    private readonly deps: {
      db: Db;
      repo: MessageRepo;
      clock: Clock;
      events: EventService;
      contacts: ContactService;
      limits: RateLimiter;
      appender: Appender;
      delivery: Delivery;
      views: ConversationViews;
    },
  ) {}

  /** Moves the caller's read mark forward (never back); the other person learns it at once. */
  async read(userId: string, conversationId: string, seq: number): Promise<void> {
    await this.deps.limits.consume('readPerUser', userId);
    await this.transact(async (trx, events, after) => {
      const member = await memberOf(this.deps.repo, trx, conversationId, userId);
      if (!(await this.markRead(trx, member, seq, after))) return;
      events.push(await this.deps.views.conversationEvent(trx, userId, conversationId));
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
    after: AfterCommit,
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
    await repo.startBurn(conversationId, userId, Number(member.read_seq), upTo, now);
    if (peerId) {
      after.push(() =>
        this.deps.delivery.toUsers([peerId], { t: 'read', conversationId, userId, seq: upTo }),
      );
    }
    return true;
  }

  /** Revokes the caller's own message within the window: a `revoke` notice tells everyone. */
  async revoke(userId: string, conversationId: string, seq: number): Promise<Message> {
    const noticeRow = await this.transact(async (trx, _events, after) => {
      const repo = this.deps.repo.in(trx);
      const now = this.deps.clock.now();
      const { member, target } = await this.visibleTarget(trx, conversationId, userId, seq, now);
      const content = JSON.parse(target.content) as MessageContent;
      if (target.sender_id !== userId || !isSentContent(content)) {
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
      const notice = await this.deps.appender.memberNotice(
        trx,
        member,
        noticeId,
        { kind: 'revoke', targetSeq: seq },
        now,
        after,
      );
      await repo.setRevoked(conversationId, seq, now);
      return notice;
    });
    this.deps.delivery.removed([{ conversationId, seq }]);
    return toMessage(noticeRow);
  }

  /**
   * Gives the caller's own text new words within the edit window. An `edit` notice
   * carries them to every member's devices, as a revoke's does; translations of the old
   * words go, and are made again for the new ones as for a new message.
   */
  async edit(
    userId: string,
    conversationId: string,
    seq: number,
    text: string,
    lang: string | null,
  ): Promise<Message> {
    const noticeRow = await this.transact(async (trx, _events, after) => {
      const repo = this.deps.repo.in(trx);
      const now = this.deps.clock.now();
      const { member, target } = await this.visibleTarget(trx, conversationId, userId, seq, now);
      const content = JSON.parse(target.content) as MessageContent;
      // A forwarded text is someone else's words.
      if (
        target.sender_id !== userId ||
        target.revoked_at !== null ||
        content.kind !== 'text' ||
        content.forwarded === true
      ) {
        throw new AppError('EDIT_NOT_ALLOWED');
      }
      if (now - target.created_at > EDIT_WINDOW_SECONDS * SECOND) {
        throw new AppError('EDIT_EXPIRED', { hours: EDIT_WINDOW_SECONDS / 3600 });
      }
      const edited: MessageContent = { ...content, text };
      const notice = await this.deps.appender.memberNotice(
        trx,
        member,
        `edit-${newId()}`,
        { kind: 'edit', targetSeq: seq, text },
        now,
        after,
        lang,
      );
      await repo.setEdited(conversationId, seq, {
        content: JSON.stringify(edited),
        lang,
        ...searchColumns(edited),
        edited_at: now,
      });
      await forgetTranslations(trx, target.id);
      return notice;
    });
    const notice = toMessage(noticeRow);
    this.deps.delivery.sent([notice]);
    return notice;
  }

  /** Deletes a message for the caller only; their other devices learn it from the event stream. */
  async hide(userId: string, conversationId: string, seq: number): Promise<void> {
    await this.transact(async (trx, events) => {
      const repo = this.deps.repo.in(trx);
      const now = this.deps.clock.now();
      await this.visibleTarget(trx, conversationId, userId, seq, now);
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

  /**
   * Pin, mute, delete from the chat list (which also marks everything read), or choose
   * whether and into which language messages here are translated.
   */
  async update(
    userId: string,
    conversationId: string,
    patch: UpdateConversationBody,
  ): Promise<Conversation> {
    if (Object.values(patch).every((value) => value === undefined)) {
      throw invalidField('', 'required');
    }
    return this.transact(async (trx, events, after) => {
      const member = await memberOf(this.deps.repo, trx, conversationId, userId);
      // A chat deleted from the list leaves nothing counted as unread behind.
      if (patch.hidden === true) await this.markRead(trx, member, Number.MAX_SAFE_INTEGER, after);
      await this.deps.repo.in(trx).updateMember(conversationId, userId, {
        ...(patch.pinned === undefined ? {} : { pinned: patch.pinned ? 1 : 0 }),
        ...(patch.muted === undefined ? {} : { muted: patch.muted ? 1 : 0 }),
        ...(patch.hidden === undefined ? {} : { hidden: patch.hidden ? 1 : 0 }),
        ...(patch.translate === undefined ? {} : { translate_off: patch.translate ? 0 : 1 }),
        ...(patch.translateTo === undefined ? {} : { translate_to: patch.translateTo }),
        updated_at: this.deps.clock.now(),
      });
      const event = await this.deps.views.conversationEvent(trx, userId, conversationId);
      events.push(event);
      return conversationOf(event);
    });
  }

  /** Clears the history for the caller only: messages up to now stay hidden from them. */
  async clear(userId: string, conversationId: string): Promise<Conversation> {
    return this.transact(async (trx, events, after) => {
      const repo = this.deps.repo.in(trx);
      const member = await memberOf(this.deps.repo, trx, conversationId, userId);
      const conversation = await repo.findConversation(conversationId);
      const maxSeq = Number(conversation?.max_seq ?? 0);
      // Cleared messages are not left counted as unread.
      await this.markRead(trx, member, maxSeq, after);
      await repo.updateMember(conversationId, userId, {
        min_seq: maxSeq,
        updated_at: this.deps.clock.now(),
      });
      const event = await this.deps.views.conversationEvent(trx, userId, conversationId);
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
      const member = await memberOf(this.deps.repo, trx, conversationId, userId);
      if (!peerId) throw invalidField('seconds', 'burn');
      await this.deps.contacts.checkCanMessage(userId, peerId, trx);
      await this.deps.repo.in(trx).setBurnSeconds(conversationId, seconds);
      const notice = await this.deps.appender.memberNotice(
        trx,
        member,
        `burn-${newId()}`,
        { kind: 'burn', seconds },
        this.deps.clock.now(),
        after,
      );
      return notice;
    });
    return toMessage(row);
  }

  /** Relays a typing hint to the other person of a single conversation. */
  async typing(userId: string, conversationId: string): Promise<void> {
    const peerId = singlePeer(conversationId, userId);
    if (!peerId) return;
    // A hint: past the limit it is dropped, not answered.
    if (!(await this.deps.limits.attempt('typingPerUser', userId)).allowed) return;
    if (!(await this.deps.repo.findMember(conversationId, userId))) return;
    try {
      await this.deps.contacts.checkCanMessage(userId, peerId);
    } catch (error) {
      if (error instanceof AppError) return;
      throw error;
    }
    this.deps.delivery.toUsers([peerId], { t: 'typing', conversationId, userId });
  }

  /** Deletes messages whose burn time has passed (pulls leave them out already). */
  async purgeBurnt(): Promise<number> {
    const burnt = await this.deps.repo.deleteBurnt(this.deps.clock.now());
    if (burnt.length > 0) {
      const removed = burnt.map(({ conversation_id, seq }) => ({
        conversationId: conversation_id,
        seq,
      }));
      this.deps.delivery.removed(removed);
    }
    return burnt.length;
  }

  /** The caller's member row and a message they can see; anything else looks absent. */
  private async visibleTarget(
    trx: Db,
    conversationId: string,
    userId: string,
    seq: number,
    now: number,
  ): Promise<{ member: MemberRow; target: MessageRow }> {
    const member = await memberOf(this.deps.repo, trx, conversationId, userId);
    const target = await this.deps.repo.in(trx).findMessage(conversationId, seq);
    if (!target || seq <= member.min_seq || isBurnt(target, now)) {
      throw new AppError('MESSAGE_NOT_FOUND');
    }
    return { member, target };
  }

  private transact<T>(
    work: (trx: Db, events: PendingEvent[], after: AfterCommit) => Promise<T>,
  ): Promise<T> {
    return transact(this.deps.db, this.deps.events, work);
  }
}
