import {
  type Message,
  type MessageContent,
  type Quote,
  type SystemContent,
  groupIdOf,
  isSentContent,
} from '@teltlk/protocol';
import type { Db, MemberRow, MessageRow } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId, newSortableId } from '../../lib/random.js';
import type { Delivery } from './delivery.js';
import type { MessageRepo } from './repo.js';
import type { BurnRead, ReadMark } from './repo-queries.js';
import { messageOf, quoteOf, singlePeer } from './rows.js';
import { searchColumns } from './search-text.js';
import type { AfterCommit } from './transaction.js';

/** A message to append, with its sender's read mark before it. */
export interface NewEntry {
  senderId: string;
  readSeq: number;
  clientMsgId: string;
  content: MessageContent;
  /** The detected source language of a text. */
  lang?: string | null;
  /**
   * A reply: the seq of the message it quotes, resolved into the content's quote once the
   * conversation is locked, as far as the sender can see it (after `minSeq`).
   */
  quote?: { seq: number; minSeq: number };
}

/** Entries for one conversation, in the order their seqs go. */
export interface ConversationEntries {
  conversationId: string;
  entries: readonly NewEntry[];
}

/** An appended message: its row and the content it was written from. */
export interface Appended {
  row: MessageRow;
  content: MessageContent;
}

/**
 * Appending to conversations' seq streams: the allocation of gap-free seqs, the rows, and
 * what a new message changes beside them (mentions, hidden chats, read marks, burn clocks).
 * Always inside the caller's transaction.
 */
export class Appender {
  constructor(private readonly deps: { repo: MessageRepo; clock: Clock; delivery: Delivery }) {}

  /**
   * Appends a group system notice (joined, removed, renamed, …) to a group's seq stream in
   * the caller's transaction, and queues its push for after the commit. The actor's read
   * mark moves past it while they are a member.
   */
  async systemNotice(
    trx: Db,
    conversationId: string,
    content: SystemContent,
    after: AfterCommit,
  ): Promise<Message> {
    const member = await this.deps.repo.in(trx).findMember(conversationId, content.actorId);
    const reads: AfterCommit = [];
    const [appended] = await this.appendMany(
      trx,
      [
        {
          conversationId,
          entries: [
            {
              senderId: content.actorId,
              readSeq: member ? Number(member.read_seq) : Number.MAX_SAFE_INTEGER,
              clientMsgId: `sys-${newId()}`,
              content,
            },
          ],
        },
      ],
      this.deps.clock.now(),
      reads,
    );
    const { row } = appended![0]!;
    const message = messageOf(row, content);
    after.push(
      () => this.deps.delivery.frames(conversationId, [{ t: 'message', message }]),
      ...reads,
    );
    return message;
  }

  /**
   * Appends a member's notice (revoke, edit, burn) with the next seq, in the caller's
   * transaction, and queues its push for after the commit. `lang`: an edit's new words'.
   */
  async memberNotice(
    trx: Db,
    sender: MemberRow,
    clientMsgId: string,
    content: MessageContent,
    now: number,
    after: AfterCommit,
    lang: string | null = null,
  ): Promise<MessageRow> {
    const reads: AfterCommit = [];
    const [appended] = await this.appendMany(
      trx,
      [
        {
          conversationId: sender.conversation_id,
          entries: [
            {
              senderId: sender.user_id,
              readSeq: Number(sender.read_seq),
              clientMsgId,
              content,
              lang,
            },
          ],
        },
      ],
      now,
      reads,
    );
    const row = appended![0]!.row;
    after.push(() => this.deps.delivery.row(row), ...reads);
    return row;
  }

  /**
   * Appends messages to conversations with their next seqs, in the order given, in the
   * caller's transaction; conversation rows are locked in the order of `groups`. Each
   * sender has read what came before their own message, so their read mark moves up to it
   * (and the burn clock of what others sent starts).
   */
  async appendMany(
    trx: Db,
    groups: readonly ConversationEntries[],
    now: number,
    after: AfterCommit,
  ): Promise<Appended[][]> {
    const repo = this.deps.repo.in(trx);
    const appended: Appended[][] = [];
    const allocated: { firstSeq: number; burnSeconds: number }[] = [];
    for (const { conversationId, entries } of groups) {
      const { max_seq, burn_seconds } = await repo.allocateSeqs(
        conversationId,
        entries.length,
        now,
      );
      allocated.push({
        firstSeq: Number(max_seq) - entries.length + 1,
        burnSeconds: Number(burn_seconds),
      });
    }
    // Quotes are read with the conversations locked: a revoke commits wholly before or
    // after, so no reply quotes a message revoked before it.
    const quotes = await this.resolveQuotes(trx, groups, now);
    for (const [group, { conversationId, entries }] of groups.entries()) {
      const { firstSeq, burnSeconds } = allocated[group]!;
      appended.push(
        entries.map(({ senderId, clientMsgId, content: given, lang, quote }, position) => {
          const resolved = quote && quotes.get(`${conversationId}\n${quote.seq}\n${quote.minSeq}`);
          const content: MessageContent =
            resolved && given.kind === 'text' ? { ...given, quote: resolved } : given;
          return {
            content,
            row: {
              id: newSortableId(now),
              conversation_id: conversationId,
              seq: firstSeq + position,
              sender_id: senderId,
              client_msg_id: clientMsgId,
              content: JSON.stringify(content),
              created_at: now,
              revoked_at: null,
              burn_at: null,
              // Notices never burn: they are how both sides learn of a change.
              burn_seconds: isSentContent(content) ? burnSeconds : 0,
              lang: lang ?? null,
              target_seq:
                content.kind === 'revoke' || content.kind === 'edit' ? content.targetSeq : null,
              edited_at: null,
              ...searchColumns(content),
            } satisfies MessageRow,
          };
        }),
      );
    }
    await repo.insertMessages(appended.flatMap((list) => list.map(({ row }) => row)));
    // Mentions: a write only for the members named, and one for @all.
    for (const [group, { conversationId }] of groups.entries()) {
      if (groupIdOf(conversationId) === null) continue;
      for (const { row, content } of appended[group]!) {
        if (content.kind !== 'text') continue;
        const named = (content.mentions ?? []).filter((id) => id !== row.sender_id);
        await repo.setMentioned(conversationId, named, row.seq);
        if (content.mentionAll) await repo.setMentionAll(conversationId, row.seq);
      }
    }
    // Each sender has read up to their last new message: one statement for the batch. In a
    // single chat, the other person's messages before it are now read too: their burn
    // clocks start and their read ticks follow. (Groups have no burning.)
    const marks: ReadMark[] = [];
    const burns: BurnRead[] = [];
    for (const [group, { conversationId, entries }] of groups.entries()) {
      const list = appended[group]!;
      const firstSeq = list[0]!.row.seq;
      // Each sender's last new seq, and their read mark before it.
      const senders = new Map<string, { readSeq: number; lastSeq: number }>();
      entries.forEach(({ senderId, readSeq }, position) => {
        senders.set(senderId, { readSeq, lastSeq: firstSeq + position });
      });
      const peerOf = (senderId: string) => singlePeer(conversationId, senderId);
      for (const [senderId, { readSeq, lastSeq }] of senders) {
        if (lastSeq <= readSeq) continue;
        marks.push({ conversationId, userId: senderId, seq: lastSeq });
        const peerId = peerOf(senderId);
        if (!peerId) continue;
        // Others' messages between the old mark and the sender's own: before this batch, or
        // interleaved in it.
        const othersBetween =
          readSeq < firstSeq - 1 ||
          list.some(
            ({ row }) => row.seq > readSeq && row.seq < lastSeq && row.sender_id !== senderId,
          );
        if (!othersBetween) continue;
        burns.push({ conversationId, readerId: senderId, fromSeq: readSeq, seq: lastSeq });
        after.push(() =>
          this.deps.delivery.toUsers([peerId], {
            t: 'read',
            conversationId,
            userId: senderId,
            seq: lastSeq,
          }),
        );
      }
    }
    // Deleted chats come back for their members (found through their own index: few rows,
    // most often none), and the read marks move.
    await repo.unhideMembers(
      groups.map(({ conversationId }) => conversationId),
      now,
    );
    await repo.advanceReads(marks);
    await repo.startBurns(burns, now);
    return appended;
  }

  /**
   * The quotes of these entries, from the stored messages they name (one look-up for all),
   * keyed by `conversation\nseq\nminSeq`: the sender and an excerpt of a text the sender
   * can see, else unavailable.
   */
  private async resolveQuotes(
    trx: Db,
    groups: readonly ConversationEntries[],
    now: number,
  ): Promise<Map<string, Quote>> {
    const wanted = groups.flatMap(({ conversationId, entries }) =>
      entries.flatMap(({ quote }) => (quote ? [{ conversationId, ...quote }] : [])),
    );
    const quotes = new Map<string, Quote>();
    if (wanted.length === 0) return quotes;
    const targets = await this.deps.repo
      .in(trx)
      .messagesAt(wanted.map(({ conversationId, seq }) => [conversationId, seq] as const));
    const byKey = new Map(targets.map((row) => [`${row.conversation_id}\n${row.seq}`, row]));
    for (const { conversationId, seq, minSeq } of wanted) {
      const target = seq > minSeq ? byKey.get(`${conversationId}\n${seq}`) : undefined;
      quotes.set(`${conversationId}\n${seq}\n${minSeq}`, quoteOf(target, seq, now));
    }
    return quotes;
  }
}
