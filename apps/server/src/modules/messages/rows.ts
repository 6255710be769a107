import {
  peerOf,
  quotedPart,
  singleConversationId,
  type Conversation,
  type GroupBrief,
  type Message,
  type MessageContent,
  type Quote,
  type UserCard,
} from '@teltlk/protocol';
import type { MessageRow } from '../../db/schema.js';
import { invalidField } from '../../errors.js';
import type { PendingEvent } from '../events/service.js';
import type { MemberView } from './members-repo.js';

/** Rows of the messaging tables as the protocol's records, and the rules read off them. */

/** A just-written message, from its row and the content it was written from (no re-parse). */
export function messageOf(row: MessageRow, content: MessageContent): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    senderId: row.sender_id,
    clientMsgId: row.client_msg_id,
    content,
    createdAt: row.created_at,
    revokedAt: null,
    burnAt: null,
    lang: row.lang,
    editedAt: null,
  };
}

/** A retry that raced its first copy in one batch; another conversation is a client bug. */
export function replayedMessage(message: Message, conversationId: string): Message {
  if (message.conversationId !== conversationId) throw invalidField('clientMsgId', 'clientMsgId');
  return message;
}

/**
 * The other person of a single conversation the caller is part of; null otherwise. A pair
 * has one conversation, its ids sorted: the other order names none, or writing to it would
 * open a second chat beside the one the other person muted, hid or cleared.
 */
export function singlePeer(conversationId: string, userId: string): string | null {
  const peerId = peerOf(conversationId, userId);
  if (peerId === null || peerId === userId) return null;
  return conversationId === singleConversationId(userId, peerId) ? peerId : null;
}

export function isBurnt(row: { burn_at: number | null }, now: number): boolean {
  return row.burn_at !== null && Number(row.burn_at) <= now;
}

/**
 * The quote of the message at `seq`, from its stored row: its sender and an excerpt of a
 * text (or a location's place name) still there; unavailable when there is no such row
 * (or none the quoting side may see), or it is revoked, burnt, or a notice.
 */
export function quoteOf(target: MessageRow | undefined, seq: number, now: number): Quote {
  if (!target || target.revoked_at !== null || isBurnt(target, now)) {
    return { seq, unavailable: true };
  }
  const part = quotedPart(JSON.parse(target.content) as MessageContent);
  if (!part) return { seq, unavailable: true };
  return { seq, senderId: target.sender_id, ...part };
}

/** A stored message for a retried send; the same client id in another conversation is a client bug. */
export function replayed(row: MessageRow, conversationId: string): Message {
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
    lang: row.revoked_at === null ? row.lang : null,
    editedAt: row.edited_at === null || row.revoked_at !== null ? null : Number(row.edited_at),
  };
}

export function toConversation(
  row: MemberView,
  peer: UserCard | null,
  group: GroupBrief | null,
  peerReadSeq: number,
  lastMessage: Message | null,
): Conversation {
  return {
    id: row.conversation_id,
    kind: row.kind === 'group' ? 'group' : 'single',
    peer,
    group,
    maxSeq: Number(row.max_seq),
    readSeq: Number(row.read_seq),
    minSeq: Number(row.min_seq),
    peerReadSeq,
    pinned: row.pinned === 1,
    muted: row.muted === 1,
    hidden: row.hidden === 1,
    burnSeconds: Number(row.burn_seconds),
    translate: row.translate_off === 0,
    translateTo: row.translate_to,
    // A mention (by name or @all) counts only within the member's history: @all said
    // before they joined, or either before they cleared the history, is not theirs.
    mentionSeq: Math.max(
      ...[Number(row.mention_seq), Number(row.mention_all_seq)].filter(
        (seq) => seq > Number(row.min_seq),
      ),
      0,
    ),
    lastMessage,
    updatedAt: Math.max(Number(row.updated_at), Number(row.conversation_updated_at)),
  };
}

export function conversationOf(event: PendingEvent): Conversation {
  if (event.event.data.type !== 'conversation') throw new Error('not a conversation event');
  return event.event.data.conversation;
}
