import {
  isQuoteAvailable,
  isSentContent,
  quotedPart,
  type Conversation,
  type Message,
  type MessageContent,
  type SendableContent,
} from '@teltlk/protocol';
import type { StoredConversation, StoredMessage } from './store.js';
import type { ConversationView, LocalMessage } from './types.js';

/**
 * Pure functions that apply what the server says to local state. Input may come twice
 * (a push and a pull), late (a pull that started before a push) or out of order; each
 * function ignores what is stale or already applied, judged by seq.
 */

export function messageKey(message: { senderId: string; clientMsgId: string }): string {
  return `${message.senderId}\u0000${message.clientMsgId}`;
}

/** A conversation first seen from the server: nothing of it is local yet. */
export function newStoredConversation(conversation: Conversation): StoredConversation {
  return {
    ...conversation,
    coveredFrom: null,
    pulledSeq: 0,
    historyComplete: false,
    stateAt: conversation.updatedAt,
    burnSeq: conversation.maxSeq,
    pendingRead: null,
  };
}

/**
 * Merges a server copy of a conversation (sync page, event, REST answer) into the local
 * one. Seqs only move forward; member state (pinned, muted, hidden, translation) comes
 * from the newer copy by updatedAt; the burn setting from the copy that has seen the
 * newer burn notice.
 */
export function mergeConversation(
  local: StoredConversation | undefined,
  incoming: Conversation,
  userId?: string,
): StoredConversation {
  return ownLastIsRead(mergeCopies(local, incoming), userId);
}

/** Having sent the last message means having read everything up to it. */
function ownLastIsRead(conversation: StoredConversation, userId?: string): StoredConversation {
  const last = conversation.lastMessage;
  if (!last || userId === undefined || last.senderId !== userId) return conversation;
  if (conversation.readSeq >= last.seq) return conversation;
  return { ...conversation, readSeq: last.seq };
}

function mergeCopies(
  local: StoredConversation | undefined,
  incoming: Conversation,
): StoredConversation {
  if (!local) return withCoverage(newStoredConversation(incoming), 0);
  const newer = incoming.updatedAt >= local.stateAt;
  const maxSeq = Math.max(local.maxSeq, incoming.maxSeq);
  const readSeq = Math.max(local.readSeq, incoming.readSeq);
  // The server's lastMessage is the truth for every seq it has seen; ours wins only
  // when we know a newer message than the copy does.
  const lastMessage =
    local.lastMessage && local.lastMessage.seq > incoming.maxSeq
      ? local.lastMessage
      : incoming.maxSeq >= local.maxSeq
        ? incoming.lastMessage
        : local.lastMessage;
  const burnFromIncoming = incoming.maxSeq >= local.burnSeq;
  const merged: StoredConversation = {
    ...local,
    kind: incoming.kind,
    peer: incoming.peer ?? local.peer,
    // Groups are renamed and change size: the server's copy is the newer brief.
    group: incoming.group ?? local.group ?? null,
    mentionSeq: Math.max(local.mentionSeq ?? 0, incoming.mentionSeq),
    maxSeq,
    readSeq,
    minSeq: Math.max(local.minSeq, incoming.minSeq),
    peerReadSeq: Math.max(local.peerReadSeq, incoming.peerReadSeq),
    pinned: newer ? incoming.pinned : local.pinned,
    muted: newer ? incoming.muted : local.muted,
    translate: newer ? incoming.translate : local.translate,
    translateTo: newer ? incoming.translateTo : local.translateTo,
    // A message newer than the copy brought the conversation back to the list.
    hidden: newer ? incoming.hidden && local.maxSeq <= incoming.maxSeq : local.hidden,
    burnSeconds: burnFromIncoming ? incoming.burnSeconds : local.burnSeconds,
    burnSeq: burnFromIncoming ? Math.max(local.burnSeq, incoming.maxSeq) : local.burnSeq,
    lastMessage,
    updatedAt: Math.max(local.updatedAt, incoming.updatedAt),
    stateAt: newer ? incoming.updatedAt : local.stateAt,
    pendingRead:
      local.pendingRead !== null && incoming.readSeq < local.pendingRead ? local.pendingRead : null,
  };
  return withCoverage(merged, local.minSeq);
}

/** Keeps the coverage consistent after minSeq moved (history cleared). */
function withCoverage(
  conversation: StoredConversation,
  previousMinSeq: number,
): StoredConversation {
  const { minSeq } = conversation;
  if (minSeq <= previousMinSeq && conversation.coveredFrom === null) return conversation;
  let { coveredFrom, pulledSeq, historyComplete } = conversation;
  if (coveredFrom !== null) {
    pulledSeq = Math.max(pulledSeq, minSeq);
    coveredFrom = Math.max(coveredFrom, minSeq + 1);
  }
  if (coveredFrom !== null && coveredFrom <= minSeq + 1) historyComplete = true;
  const lastMessage =
    conversation.lastMessage && conversation.lastMessage.seq <= minSeq
      ? null
      : conversation.lastMessage;
  return { ...conversation, coveredFrom, pulledSeq, historyComplete, lastMessage };
}

export function toStored(message: Message, previous?: StoredMessage): StoredMessage {
  return {
    id: message.id,
    conversationId: message.conversationId,
    seq: message.seq,
    clientMsgId: message.clientMsgId,
    senderId: message.senderId,
    content: message.content,
    createdAt: message.createdAt,
    revokedAt: message.revokedAt,
    burnAt: message.burnAt,
    lang: message.lang,
    editedAt: message.editedAt,
    status: 'sent',
    order: previous?.order ?? 0,
    ...(previous?.hidden ? { hidden: 1 as const } : {}),
  };
}

/** The app's view of a stored row, without the local bookkeeping fields. */
export function toLocal(row: StoredMessage): LocalMessage {
  const message: LocalMessage = {
    conversationId: row.conversationId,
    seq: row.seq,
    clientMsgId: row.clientMsgId,
    senderId: row.senderId,
    content: row.content,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    burnAt: row.burnAt,
    lang: row.lang,
    status: row.status,
  };
  if (row.error !== undefined) message.error = row.error;
  if (row.editedAt != null) message.editedAt = row.editedAt;
  return message;
}

export interface MessageBatch {
  /** The conversation after the batch; undefined if it is not known locally yet. */
  conversation: StoredConversation | undefined;
  /** Rows to write. */
  puts: StoredMessage[];
  /** New messages beyond the known maxSeq, not our own pending sends. */
  fresh: StoredMessage[];
  /** Target seqs of revoke notices seen for the first time. */
  revoked: number[];
  /** Seqs of texts given new words by this batch. */
  edited: number[];
  /** Set when a message lies beyond a gap: pull after this seq. */
  gapAfter: number | null;
}

const REVOKED: MessageContent = { kind: 'revoked' };

/**
 * Applies server messages of one conversation. `known` holds the local rows that may
 * matter: the same keys or seqs, and the targets of revoke notices. `extendCoverage`:
 * the messages came one by one (push, ack), so a seq right after the covered range
 * extends it and a larger one is a gap; pulls set the coverage themselves.
 */
export function applyMessages(
  conversation: StoredConversation | undefined,
  known: readonly StoredMessage[],
  messages: readonly Message[],
  options: { userId: string; extendCoverage: boolean },
): MessageBatch {
  const byKey = new Map<string, StoredMessage>();
  const bySeq = new Map<number, StoredMessage>();
  const remember = (row: StoredMessage) => {
    byKey.set(messageKey(row), row);
    if (row.seq !== null) bySeq.set(row.seq, row);
  };
  known.forEach(remember);
  const puts = new Map<string, StoredMessage>();
  const put = (row: StoredMessage) => {
    remember(row);
    puts.set(messageKey(row), row);
  };
  const fresh: StoredMessage[] = [];
  const revoked: number[] = [];
  const edited: number[] = [];
  /** Gives a stored text the words of an edit made at `at`, unless it has newer ones. */
  const edit = (
    target: StoredMessage | undefined,
    text: string,
    lang: string | null,
    at: number,
  ) => {
    if (!target || target.revokedAt !== null || target.content.kind !== 'text') return;
    if ((target.editedAt ?? 0) >= at) return;
    put({ ...target, content: { ...target.content, text }, lang, editedAt: at });
    edited.push(target.seq!);
  };
  let conv = conversation;
  let gapAfter: number | null = null;

  for (const message of [...messages].sort((a, b) => a.seq - b.seq)) {
    if (conv && message.seq <= conv.minSeq) continue;
    const previous = byKey.get(messageKey(message)) ?? bySeq.get(message.seq);
    const isNew = !previous || previous.seq === null;
    // News: beyond what this device knew existed. History pulled on opening a
    // conversation, or caught up after the list already counted it, is not news.
    const isNews = !previous && (!conv || message.seq > conv.maxSeq);
    if (isNew) {
      const row = toStored(message, previous);
      put(row);
      if (isNews) fresh.push(row);
    } else {
      // Rows are written once, except that a message may since be revoked, or have its
      // burn clock started by the recipient's read.
      const revokedNow = message.revokedAt !== null && previous.revokedAt === null;
      const burnNow = message.burnAt !== null && previous.burnAt === null;
      if (revokedNow || burnNow) {
        put({
          ...previous,
          ...(revokedNow ? { content: message.content, revokedAt: message.revokedAt } : {}),
          ...(burnNow ? { burnAt: message.burnAt } : {}),
        });
      }
      // Or edited: a pull brings the newest words.
      if (!revokedNow && message.editedAt !== null && message.content.kind === 'text') {
        edit(bySeq.get(message.seq), message.content.text, message.lang, message.editedAt);
      }
    }

    const content = message.content;
    if (content.kind === 'revoke' && isNew) {
      const target = bySeq.get(content.targetSeq);
      const changed = !!target && target.revokedAt === null;
      if (target && changed) put({ ...target, content: REVOKED, revokedAt: message.createdAt });
      if (changed || isNews) revoked.push(content.targetSeq);
    }
    if (content.kind === 'edit' && isNew) {
      edit(bySeq.get(content.targetSeq), content.text, message.lang, message.createdAt);
    }
    if (!conv) continue;

    const wasMax = conv.maxSeq;
    const next: StoredConversation = { ...conv };
    if (message.seq > wasMax) {
      next.maxSeq = message.seq;
      next.hidden = false;
    }
    if (!conv.lastMessage || message.seq >= conv.lastMessage.seq) next.lastMessage = message;
    if (content.kind === 'revoke' && next.lastMessage?.seq === content.targetSeq) {
      next.lastMessage = { ...next.lastMessage, content: REVOKED, revokedAt: message.createdAt };
    }
    if (content.kind === 'edit' && next.lastMessage?.seq === content.targetSeq) {
      const last = next.lastMessage;
      if (last.content.kind === 'text' && last.revokedAt === null) {
        next.lastMessage = { ...last, content: { ...last.content, text: content.text } };
      }
    }
    if (content.kind === 'burn' && message.seq > conv.burnSeq) {
      next.burnSeconds = content.seconds;
      next.burnSeq = message.seq;
    }
    next.updatedAt = Math.max(conv.updatedAt, message.createdAt);
    // Sending means having read everything before it.
    if (message.senderId === options.userId) next.readSeq = Math.max(conv.readSeq, message.seq);
    // "You were mentioned" shows at once, not only after the next sync.
    if (
      content.kind === 'text' &&
      message.senderId !== options.userId &&
      (content.mentionAll === true || content.mentions?.includes(options.userId) === true)
    ) {
      next.mentionSeq = Math.max(conv.mentionSeq ?? 0, message.seq);
    }

    if (options.extendCoverage) {
      if (conv.coveredFrom === null) {
        if (wasMax <= conv.minSeq && message.seq === conv.minSeq + 1) {
          // The first message of a conversation with no history: complete from the start.
          next.coveredFrom = message.seq;
          next.pulledSeq = message.seq;
          next.historyComplete = true;
        }
      } else if (message.seq === conv.pulledSeq + 1) {
        next.pulledSeq = message.seq;
      } else if (message.seq > conv.pulledSeq + 1 && gapAfter === null) {
        gapAfter = conv.pulledSeq;
      }
    }
    conv = next;
  }
  return { conversation: conv, puts: [...puts.values()], fresh, revoked, edited, gapAfter };
}

/** How a pushed item with `seq` relates to what was applied up to `last`. */
export function classifySeq(last: number, seq: number): 'apply' | 'stale' | 'gap' {
  if (seq <= last) return 'stale';
  return seq === last + 1 ? 'apply' : 'gap';
}

/** A read mark pushed by the server: ours from another device, or the peer's. */
export function applyRead(
  conversation: StoredConversation,
  userId: string,
  readerId: string,
  seq: number,
): StoredConversation {
  if (readerId === userId) {
    if (seq <= conversation.readSeq) return conversation;
    return { ...conversation, readSeq: Math.min(Math.max(seq, 0), conversation.maxSeq) };
  }
  if (seq <= conversation.peerReadSeq) return conversation;
  return { ...conversation, peerReadSeq: seq };
}

/** Our own read mark, before the server confirms it. */
export function markReadLocally(conversation: StoredConversation): StoredConversation {
  if (conversation.readSeq >= conversation.maxSeq) return conversation;
  return { ...conversation, readSeq: conversation.maxSeq, pendingRead: conversation.maxSeq };
}

/** A message deleted for me: the list shows the newest one still visible instead. */
export function hideInConversation(
  conversation: StoredConversation,
  seq: number,
  newestVisible: Message | null,
): StoredConversation {
  if (conversation.lastMessage?.seq !== seq) return conversation;
  return { ...conversation, lastMessage: newestVisible };
}

/**
 * A send as this device shows it until the server's copy arrives: a reply's quote taken
 * from the local copy of the quoted message (the server fills in its own from the stored
 * one), or unavailable when there is none to show.
 */
export function shownContent(
  content: SendableContent,
  quoted: StoredMessage | undefined,
  now: number,
): MessageContent {
  // A record is written by the server alone (forwardMerged), never queued here.
  if (content.kind === 'merged') throw new Error('a chat history record is not queued');
  if (content.kind !== 'text') return content;
  const { quote, ...rest } = content;
  if (!quote) return rest;
  const part =
    quoted && quoted.seq === quote.seq && quoted.revokedAt === null && !isBurnt(quoted, now)
      ? quotedPart(quoted.content)
      : null;
  const shown =
    quoted && part
      ? { seq: quote.seq, senderId: quoted.senderId, ...part }
      : { seq: quote.seq, unavailable: true as const };
  return { ...rest, quote: shown };
}

/** What a stored send goes out as again: a reply names its quoted message by seq only. */
export function sendableOf(content: MessageContent): SendableContent {
  if (!isSentContent(content) || content.kind === 'merged') {
    throw new Error(`a ${content.kind} cannot be sent again`);
  }
  if (content.kind !== 'text') return content;
  const { quote, ...rest } = content;
  return quote ? { ...rest, quote: { seq: quote.seq } } : rest;
}

/** The same text with its quote shown as unavailable (the quoted message is gone). */
export function withoutQuote(content: MessageContent): MessageContent {
  if (content.kind !== 'text' || !content.quote || !isQuoteAvailable(content.quote)) {
    return content;
  }
  return { ...content, quote: { seq: content.quote.seq, unavailable: true } };
}

export function isBurnt(message: { burnAt: number | null }, now: number): boolean {
  return message.burnAt !== null && message.burnAt <= now;
}

/** Whether a stored row belongs in a conversation's message list. */
export function isShown(row: StoredMessage, now: number): boolean {
  // A notice is shown through its target, which reads as revoked or edited.
  return !row.hidden && !isBurnt(row, now) && !isNotice(row.content);
}

/** A revoke or edit notice: it changes an earlier message and is no row of its own. */
export function isNotice(content: MessageContent): boolean {
  return content.kind === 'revoke' || content.kind === 'edit';
}

export function unreadOf(conversation: Conversation): number {
  return Math.max(0, conversation.maxSeq - conversation.readSeq);
}

function activityOf(conversation: Conversation): number {
  return conversation.lastMessage?.createdAt ?? conversation.updatedAt;
}

/** Strips the local bookkeeping and adds unread and draft. */
export function conversationView(
  conversation: StoredConversation,
  draft: string,
  now: number,
): ConversationView {
  const {
    coveredFrom: _coveredFrom,
    pulledSeq: _pulledSeq,
    historyComplete: _historyComplete,
    stateAt: _stateAt,
    burnSeq: _burnSeq,
    pendingRead: _pendingRead,
    ...server
  } = conversation;
  const lastMessage =
    server.lastMessage && isBurnt(server.lastMessage, now) ? null : server.lastMessage;
  return { ...server, lastMessage, unread: unreadOf(conversation), draft };
}

/** The chat list: not hidden; pinned first, then by latest activity, newest first. */
export function chatList(
  conversations: Iterable<StoredConversation>,
  drafts: ReadonlyMap<string, string>,
  now: number,
): { conversations: ConversationView[]; totalUnread: number } {
  const list: ConversationView[] = [];
  let totalUnread = 0;
  for (const conversation of conversations) {
    if (conversation.hidden) continue;
    const view = conversationView(conversation, drafts.get(conversation.id) ?? '', now);
    list.push(view);
    if (!view.muted) totalUnread += view.unread;
  }
  list.sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) ||
      activityOf(b) - activityOf(a) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { conversations: list, totalUnread };
}
