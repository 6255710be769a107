import {
  GROUP_ROLE_RANK,
  REVOKE_WINDOW_SECONDS,
  groupRoleSchema,
  isQuoteAvailable,
  mayInGroup,
  peerOf,
  singleMembersOf,
  singleConversationId,
  quoteExcerpt,
  type Conversation,
  type ConversationSyncResult,
  type GroupBrief,
  type GroupRole,
  type Message,
  type MessageContent,
  type MessagePageQuery,
  type MessagePageResult,
  type Quote,
  type SendMessageBody,
  type ServerFrame,
  type SystemContent,
  type UpdateConversationBody,
  type UserCard,
} from '@teltlk/protocol';
import type { Db, MemberRow, MessageRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import { MINUTE, SECOND, type Clock } from '../../lib/clock.js';
import { newId, newSortableId } from '../../lib/random.js';
import type { MemberHub } from '../../realtime/hub.js';
import type { ContactService } from '../contacts/service.js';
import type { FileStore } from '../files/store.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { ChineseScripts } from '../translation/chinese.js';
import { languageOf, type Guess, type LanguageDetector } from '../translation/detect.js';
import type { RateLimiter } from '../limits/limiter.js';
import { LARGE_GROUP_MEMBERS } from '../limits/rules.js';
import { GroupCommit, type Outcome } from './group-commit.js';
import {
  CLIENT_ID_LOOKUP_MAX,
  type BurnRead,
  type MemberView,
  type MessageRepo,
  type ReadMark,
} from './repo.js';
import { frameFor, messageFor, reachesBack, withoutQuote, type Reader } from './visibility.js';

/**
 * syncedAt is this much before the query: a change written by a transaction that began
 * before the query but committed after it carries an earlier updated_at, and must still
 * be newer than the syncedAt the client keeps. Clients apply conversations idempotently,
 * so seeing a few twice costs nothing.
 */
export const SYNC_SAFETY_MS = 10 * SECOND;

/** Most sends written in one transaction. */
const SEND_BATCH_MAX = 1000;

/** A send waiting for its group commit. */
interface SendRequest {
  userId: string;
  body: SendMessageBody;
  /** The detector's guess at the text's language, asked for as the send arrived. */
  guess: Promise<Guess>;
}

/**
 * Whether a sender may write to a conversation: their read mark and the seq their history
 * starts after, and in a group their role.
 */
type WriterState =
  | {
      readSeq: number;
      minSeq: number;
      group?: { role: GroupRole; allowedKinds: readonly string[] };
    }
  | { error: AppError };

/** A message to append, with its sender's read mark before it. */
interface NewEntry {
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

/** Messages gone for good (revoked, burnt): what was derived from them goes too. */
export interface RemovedMessage {
  conversationId: string;
  seq: number;
}

/** How a member reads a conversation: from which seq, and into which language. */
export interface ReaderState {
  minSeq: number;
  /** Their choice for the conversation, else their mother tongue. */
  lang: string;
}

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
const GROUP_CONVERSATION_PREFIX = 'sg_';
/** Group sizes kept for the send limit; past this many the memory starts over. */
const GROUP_SIZES_REMEMBERED = 10_000;

export class MessageService {
  private readonly sends: GroupCommit<SendRequest, Message>;
  private readonly groupSizes = new Map<string, { members: number; until: number }>();
  private readonly sentListeners: ((messages: readonly Message[]) => void)[] = [];
  private readonly removedListeners: ((removed: readonly RemovedMessage[]) => void)[] = [];

  constructor(
    private readonly deps: {
      db: Db;
      repo: MessageRepo;
      clock: Clock;
      hub: MemberHub;
      events: EventService;
      contacts: ContactService;
      files: FileStore;
      detector: LanguageDetector;
      scripts: ChineseScripts;
      limits: RateLimiter;
    },
  ) {
    this.sends = new GroupCommit({
      writeBatch: (sends) => this.writeSends(sends),
      writeAlone: (send) => this.sendAlone(send),
      maxBatch: SEND_BATCH_MAX,
    });
  }

  // -------------------------------------------------------------------------- sending

  /**
   * Stores the message once and pushes it to every member's sockets. A retry with the
   * same client message id returns the stored message (also when it races the first).
   * Sends are group-committed: those that arrive while a transaction runs are written
   * together in the next one, and each resolves once the commit holding it is done.
   */
  async send(userId: string, body: SendMessageBody): Promise<Message> {
    await this.limitSend(userId, body.conversationId);
    // Detection runs on its own thread while earlier sends are written; a detector that
    // fails costs the guess, never the send (the text counts as unsure).
    const guess = this.deps.detector
      .guessOne(body.content.text)
      .catch((): Guess => ({ language: '', reliable: false }));
    return this.sends.submit({ userId, body, guess });
  }

  /**
   * The send limits, before anything is written: per user, and tighter into a large group,
   * where one message becomes a push to every online member on every node.
   */
  private async limitSend(userId: string, conversationId: string): Promise<void> {
    const { limits } = this.deps;
    await limits.consume('sendPerUser', userId);
    if (!conversationId.startsWith(GROUP_CONVERSATION_PREFIX)) return;
    if ((await this.groupSize(conversationId)) >= LARGE_GROUP_MEMBERS) {
      await limits.consume('largeGroupSendPerUser', userId);
    }
  }

  /** A group's member count, remembered for a minute: a limit needs its size, not its exact count. */
  private async groupSize(conversationId: string): Promise<number> {
    const now = this.deps.clock.now();
    const known = this.groupSizes.get(conversationId);
    if (known && known.until > now) return known.members;
    const members = await this.deps.repo.groupMemberCount(
      conversationId.slice(GROUP_CONVERSATION_PREFIX.length),
    );
    if (this.groupSizes.size >= GROUP_SIZES_REMEMBERED) this.groupSizes.clear();
    this.groupSizes.set(conversationId, { members, until: now + MINUTE });
    return members;
  }

  /** Which of these users are members of the conversation (point look-ups, any size). */
  membersAmong(conversationId: string, userIds: readonly string[], db?: Db): Promise<string[]> {
    const repo = db ? this.deps.repo.in(db) : this.deps.repo;
    return repo.membersAmong(conversationId, userIds);
  }

  /**
   * Which of these users are members of the conversation, each with the seq their history
   * starts after (whom a push may reach, and with what): one look-up, any size.
   */
  readersAmong(conversationId: string, userIds: readonly string[]): Promise<Reader[]> {
    return this.deps.repo.readersAmong(conversationId, userIds);
  }

  /** Called after each commit of sent messages (texts), once their pushes are out. */
  onSent(listener: (messages: readonly Message[]) => void): void {
    this.sentListeners.push(listener);
  }

  /** Called after messages are revoked or burnt. */
  onRemoved(listener: (removed: readonly RemovedMessage[]) => void): void {
    this.removedListeners.push(listener);
  }

  /** How a member reads a conversation; a conversation they are not in looks absent. */
  async readerState(userId: string, conversationId: string): Promise<ReaderState> {
    const reader = await this.deps.repo.reader(conversationId, userId);
    if (!reader) throw new AppError('CONVERSATION_NOT_FOUND');
    return {
      minSeq: Number(reader.min_seq),
      lang: reader.translate_to ?? reader.mother_tongue,
    };
  }

  /**
   * Which of these members read the conversation translated, into which language, and
   * from which seq on.
   */
  readerLanguages(
    conversationId: string,
    userIds: readonly string[],
  ): Promise<(Reader & { lang: string })[]> {
    return this.deps.repo.readerLanguages(conversationId, userIds);
  }

  /**
   * Messages of a conversation by seq that a member past `minSeq` may still see (not
   * revoked, not burnt); others are left out.
   */
  async visibleBySeqs(
    conversationId: string,
    seqs: readonly number[],
    minSeq: number,
  ): Promise<Message[]> {
    const now = this.deps.clock.now();
    const rows = await this.deps.repo.bySeqs(
      conversationId,
      seqs.filter((seq) => seq > minSeq),
    );
    return rows.filter((row) => row.revoked_at === null && !isBurnt(row, now)).map(toMessage);
  }

  /** Resolves once every send submitted so far has been written or refused. */
  drain(): Promise<void> {
    return this.sends.drain();
  }

  /**
   * Writes a batch of sends in one transaction. Permission and block checks run once per
   * sender and conversation of the batch, inside the transaction, so each message is
   * checked against everything committed before it; a refused send fails alone. Seqs go
   * to each conversation's messages in arrival order. Pushes follow the commit.
   */
  private async writeSends(sends: readonly SendRequest[]): Promise<Outcome<Message>[]> {
    const outcomes: (Outcome<Message> | undefined)[] = [];
    // The same client id twice in one batch: later ones are retries racing the first.
    const firstOf = new Map<string, number>();
    const retries: [index: number, first: number][] = [];
    const fresh: number[] = [];
    sends.forEach(({ userId, body }, index) => {
      const key = `${userId}\n${body.clientMsgId}`;
      const first = firstOf.get(key);
      if (first === undefined) {
        firstOf.set(key, index);
        fresh.push(index);
      } else {
        retries.push([index, first]);
      }
    });
    const guesses = await Promise.all(sends.map((send) => send.guess));
    const scripts = await Promise.all(
      sends.map(({ body }) => this.deps.scripts.scriptOf(body.content.text)),
    );
    const now = this.deps.clock.now();
    const after: (() => void)[] = [];
    const written = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.deps.repo.in(trx);
      const rows: { index: number; row: MessageRow; content: MessageContent }[] = [];
      const stored = new Map<string, MessageRow>();
      for (let start = 0; start < fresh.length; start += CLIENT_ID_LOOKUP_MAX) {
        const pairs = fresh
          .slice(start, start + CLIENT_ID_LOOKUP_MAX)
          .map((index) => [sends[index]!.userId, sends[index]!.body.clientMsgId] as const);
        for (const row of await repo.findByClientMsgIds(pairs)) {
          stored.set(`${row.sender_id}\n${row.client_msg_id}`, row);
        }
      }
      // Who may write where: checked once per sender and conversation of the batch.
      const wanted = new Map<string, { userId: string; conversationId: string }>();
      for (const index of fresh) {
        const { userId, body } = sends[index]!;
        if (stored.has(`${userId}\n${body.clientMsgId}`)) continue;
        wanted.set(`${body.conversationId}\n${userId}`, {
          userId,
          conversationId: body.conversationId,
        });
      }
      const writers = await this.checkWriters(trx, [...wanted.values()]);
      // A text unclear on its own is taken to be in its sender's mother tongue, and a
      // Chinese one readable in either script in the sender's variety.
      const unsure = new Set<string>();
      for (const index of fresh) {
        const guess = guesses[index];
        if (guess?.reliable === false || guess?.language === 'zh') {
          unsure.add(sends[index]!.userId);
        }
      }
      const tongues = await repo.motherTongues([...unsure]);
      const byConversation = new Map<string, { index: number; writer: string }[]>();
      for (const index of fresh) {
        const { userId, body } = sends[index]!;
        const replay = stored.get(`${userId}\n${body.clientMsgId}`);
        if (replay) {
          outcomes[index] = attempt(() => replayed(replay, body.conversationId));
          continue;
        }
        const writer = `${body.conversationId}\n${userId}`;
        const state = writers.get(writer)!;
        if ('error' in state) {
          outcomes[index] = { ok: false, error: state.error };
          continue;
        }
        const refused = state.group ? groupContentRefusal(state.group, body.content) : null;
        if (refused) {
          outcomes[index] = { ok: false, error: refused };
          continue;
        }
        const list = byConversation.get(body.conversationId) ?? [];
        list.push({ index, writer });
        byConversation.set(body.conversationId, list);
      }
      // A block holds in groups: a mention of someone who blocked the sender is dropped
      // (the message still goes). One look-up for the batch.
      const mentioned = [...byConversation.values()].flat().flatMap(({ index }) => {
        const { userId, body } = sends[index]!;
        return (body.content.mentions ?? []).map((id) => [id, userId] as const);
      });
      const blocks = await this.deps.contacts.blocksAmong(mentioned, trx);
      // Conversation rows are locked in id order, so two batches never wait on each other
      // in a cycle (PostgreSQL).
      const conversationIds = [...byConversation.keys()].sort();
      const appended = await this.appendMany(
        trx,
        conversationIds.map((conversationId) => ({
          conversationId,
          entries: byConversation.get(conversationId)!.map(({ index, writer }) => {
            const { userId, body } = sends[index]!;
            const state = writers.get(writer) as { readSeq: number; minSeq: number };
            const { quote, mentions, ...rest } = body.content;
            const allowed = mentions?.filter((id) => !blocks.has(`${id}\n${userId}`));
            const content = allowed?.length ? { ...rest, mentions: allowed } : rest;
            return {
              senderId: userId,
              readSeq: state.readSeq,
              clientMsgId: body.clientMsgId,
              content,
              lang: languageOf(guesses[index] ?? null, tongues.get(userId) ?? null, scripts[index]),
              ...(quote ? { quote: { seq: quote.seq, minSeq: state.minSeq } } : {}),
            };
          }),
        })),
        now,
        after,
      );
      conversationIds.forEach((conversationId, group) => {
        const list = byConversation.get(conversationId)!;
        appended[group]!.forEach((entry, position) =>
          rows.push({ index: list[position]!.index, ...entry }),
        );
      });
      return rows;
    });
    const messages: Message[] = [];
    for (const { index, row, content } of written) {
      const message = messageOf(row, content);
      messages.push(message);
      outcomes[index] = { ok: true, value: message };
    }
    this.pushMessages(messages);
    for (const run of after) run();
    if (messages.length > 0) for (const listener of this.sentListeners) listener(messages);
    for (const [index, first] of retries) {
      const outcome = outcomes[first]!;
      outcomes[index] = outcome.ok
        ? attempt(() => replayedMessage(outcome.value, sends[index]!.body.conversationId))
        : outcome;
    }
    return sends.map(
      (_send, index) =>
        outcomes[index] ?? { ok: false, error: new Error('send left without an outcome') },
    );
  }

  /**
   * One send in a transaction of its own, after its batch failed as a whole: a retry that
   * raced its first copy (the unique key on sender and client id refused one) gets the
   * stored message.
   */
  private async sendAlone(send: SendRequest): Promise<Message> {
    const { repo } = this.deps;
    const { userId, body } = send;
    try {
      const [outcome] = await this.writeSends([send]);
      if (!outcome) throw new Error('send left without an outcome');
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    } catch (error) {
      if (error instanceof AppError) throw error;
      const raced = await repo.findByClientMsgId(userId, body.clientMsgId);
      if (raced) return replayed(raced, body.conversationId);
      throw error;
    }
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
   * Answers each writer's read mark, or why they may not write, keyed by
   * `conversation\nuser`; the look-ups are one query each for the whole list.
   */
  private async checkWriters(
    trx: Db,
    writers: readonly { userId: string; conversationId: string }[],
  ): Promise<Map<string, WriterState>> {
    const repo = this.deps.repo.in(trx);
    const states = new Map<string, WriterState>();
    const now = this.deps.clock.now();
    for (let start = 0; start < writers.length; start += CLIENT_ID_LOOKUP_MAX) {
      const chunk = writers.slice(start, start + CLIENT_ID_LOOKUP_MAX);
      const peers = chunk.map(({ userId, conversationId }) => singlePeer(conversationId, userId));
      const pairs: [string, string][] = [];
      chunk.forEach(({ userId }, position) => {
        const peerId = peers[position];
        if (peerId) pairs.push([userId, peerId]);
      });
      const refusals = await this.deps.contacts.messagingRefusals(pairs, trx);
      const members = await repo.findMembers(
        chunk.map(({ userId, conversationId }) => [conversationId, userId]),
      );
      const memberRows = new Map(
        members.map((member) => [`${member.conversation_id}\n${member.user_id}`, member]),
      );
      const groupIds = new Set(
        members.flatMap((member) => groupIdOf(member.conversation_id) ?? []),
      );
      const groups = new Map(
        (await repo.groupsByIds([...groupIds])).map((group) => [group.id, group]),
      );
      for (const [position, { userId, conversationId }] of chunk.entries()) {
        const key = `${conversationId}\n${userId}`;
        const peerId = peers[position];
        const member = memberRows.get(key);
        const readSeq = member === undefined ? undefined : Number(member.read_seq);
        if (!peerId) {
          const groupId = groupIdOf(conversationId);
          const group = groupId === null ? undefined : groups.get(groupId);
          if (!member) states.set(key, { error: new AppError('CONVERSATION_NOT_FOUND') });
          else if (group) states.set(key, groupWriter(member, group, now));
          else {
            states.set(key, {
              readSeq: Number(member.read_seq),
              minSeq: Number(member.min_seq),
            });
          }
          continue;
        }
        const refused = refusals.get(`${userId}\n${peerId}`);
        if (refused) {
          states.set(key, { error: refused });
          continue;
        }
        if (readSeq === undefined) {
          await repo.createConversation(
            conversationId,
            'single',
            [userId, peerId],
            this.deps.clock.now(),
          );
        }
        states.set(key, { readSeq: readSeq ?? 0, minSeq: Number(member?.min_seq ?? 0) });
      }
    }
    return states;
  }

  /**
   * Appends a group system notice (joined, removed, renamed, …) to a group's seq stream in
   * the caller's transaction, and queues its push for after the commit. The actor's read
   * mark moves past it while they are a member.
   */
  async appendNotice(
    trx: Db,
    conversationId: string,
    content: SystemContent,
    after: (() => void)[],
  ): Promise<Message> {
    const member = await this.deps.repo.in(trx).findMember(conversationId, content.actorId);
    const reads: (() => void)[] = [];
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
    after.push(() => this.pushFrames(conversationId, [{ t: 'message', message }]), ...reads);
    return message;
  }

  /**
   * Appends a notice with the next seq, in the caller's transaction, and queues its push
   * for after the commit.
   */
  private async append(
    trx: Db,
    sender: MemberRow,
    clientMsgId: string,
    content: MessageContent,
    now: number,
    after: (() => void)[],
  ): Promise<MessageRow> {
    const reads: (() => void)[] = [];
    const [appended] = await this.appendMany(
      trx,
      [
        {
          conversationId: sender.conversation_id,
          entries: [
            { senderId: sender.user_id, readSeq: Number(sender.read_seq), clientMsgId, content },
          ],
        },
      ],
      now,
      reads,
    );
    const row = appended![0]!.row;
    after.push(() => this.pushLater(row.conversation_id, row), ...reads);
    return row;
  }

  /**
   * Appends messages to conversations with their next seqs, in the order given, in the
   * caller's transaction; conversation rows are locked in the order of `groups`. Each
   * sender has read what came before their own message, so their read mark moves up to it
   * (and the burn clock of what others sent starts).
   */
  private async appendMany(
    trx: Db,
    groups: readonly { conversationId: string; entries: readonly NewEntry[] }[],
    now: number,
    after: (() => void)[],
  ): Promise<{ row: MessageRow; content: MessageContent }[][]> {
    const repo = this.deps.repo.in(trx);
    const appended: { row: MessageRow; content: MessageContent }[][] = [];
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
              burn_seconds: content.kind === 'text' ? burnSeconds : 0,
              lang: lang ?? null,
              target_seq: content.kind === 'revoke' ? content.targetSeq : null,
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
    await repo.unhideMembers(
      groups.map(({ conversationId }) => conversationId),
      now,
    );
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
          this.deps.hub.toUsers([peerId], {
            t: 'read',
            conversationId,
            userId: senderId,
            seq: lastSeq,
          }),
        );
      }
    }
    await repo.advanceReads(marks, now);
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
    groups: readonly { conversationId: string; entries: readonly NewEntry[] }[],
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

  // -------------------------------------------------------------------------- reading

  async page(
    userId: string,
    conversationId: string,
    query: MessagePageQuery,
  ): Promise<MessagePageResult> {
    const { db, repo, clock } = this.deps;
    const member = await this.memberOf(db, conversationId, userId);
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
  private async readable(
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

  /** Moves the caller's read mark forward (never back); the other person learns it at once. */
  async read(userId: string, conversationId: string, seq: number): Promise<void> {
    await this.deps.limits.consume('readPerUser', userId);
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
    await repo.startBurn(conversationId, userId, Number(member.read_seq), upTo, now);
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
        member,
        noticeId,
        { kind: 'revoke', targetSeq: seq },
        now,
        after,
      );
      await repo.setRevoked(conversationId, seq, now);
      return notice;
    });
    for (const listener of this.removedListeners) listener([{ conversationId, seq }]);
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
      const member = await this.memberOf(trx, conversationId, userId);
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
      const member = await this.memberOf(trx, conversationId, userId);
      if (!peerId) throw invalidField('seconds', 'burn');
      await this.deps.contacts.checkCanMessage(userId, peerId, trx);
      await this.deps.repo.in(trx).setBurnSeconds(conversationId, seconds);
      const notice = await this.append(
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
  async purgeBurnt(): Promise<number> {
    const burnt = await this.deps.repo.deleteBurnt(this.deps.clock.now());
    if (burnt.length > 0) {
      const removed = burnt.map(({ conversation_id, seq }) => ({
        conversationId: conversation_id,
        seq,
      }));
      for (const listener of this.removedListeners) listener(removed);
    }
    return burnt.length;
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
    const groupIds: string[] = [];
    for (const row of rows) {
      const peerId = singlePeer(row.conversation_id, userId);
      if (peerId) peers.set(row.conversation_id, peerId);
      const groupId = groupIdOf(row.conversation_id);
      if (groupId !== null) groupIds.push(groupId);
    }
    const [groups, cards, reads, lastRows] = await Promise.all([
      repo.groupsByIds(groupIds),
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
        `sg_${group.id}`,
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

  /**
   * Pushes committed messages to the sockets of every member (the sender's devices too).
   * A single conversation's members are in its id; a group's are read once per batch, and
   * its pushes wait for nothing.
   */
  private pushMessages(messages: readonly Message[]): void {
    const byConversation = new Map<string, ServerFrame[]>();
    for (const message of messages) {
      const list = byConversation.get(message.conversationId) ?? [];
      list.push({ t: 'message', message });
      byConversation.set(message.conversationId, list);
    }
    for (const [conversationId, frames] of byConversation) this.pushFrames(conversationId, frames);
  }

  /**
   * Frames of one conversation to its members' sockets: both people of a single
   * conversation, or a group's members who are online (never the whole member list),
   * each as far as their history goes. A single conversation's new messages are past
   * both clear marks, so only frames about older messages wait for a look-up of them.
   */
  private pushFrames(conversationId: string, frames: readonly ServerFrame[]): void {
    const pair = singleMembersOf(conversationId);
    if (!pair) {
      this.deps.hub.toOnlineMembers(conversationId, frames);
      return;
    }
    if (!frames.some(reachesBack)) {
      for (const frame of frames) this.deps.hub.toUsers(pair, frame);
      return;
    }
    // Read after the commit, as a group's members are.
    this.deps.repo.readersAmong(conversationId, pair).then(
      (readers) => {
        for (const frame of frames) {
          for (const { userId, minSeq } of readers) {
            const view = frameFor(frame, minSeq);
            if (view) this.deps.hub.toUsers([userId], view);
          }
        }
      },
      // Pushes are hints; clients catch up by sync.
      () => undefined,
    );
  }

  private pushLater(conversationId: string, row: MessageRow): void {
    this.pushFrames(conversationId, [{ t: 'message', message: toMessage(row) }]);
  }
}

/** The group id of a group conversation (`sg_<id>`); null for any other conversation. */
export function groupIdOf(conversationId: string): string | null {
  return conversationId.startsWith('sg_') ? conversationId.slice(3) : null;
}

/** A group member's right to send at all: role, a personal mute, everyone muted. */
function groupWriter(
  member: MemberRow,
  group: { all_muted: number; allowed_kinds: string },
  now: number,
): WriterState {
  const parsed = groupRoleSchema.safeParse(member.role);
  if (!parsed.success || !mayInGroup(parsed.data, 'send')) {
    return { error: new AppError('CONVERSATION_NOT_FOUND') };
  }
  const role = parsed.data;
  const privileged = GROUP_ROLE_RANK[role] >= GROUP_ROLE_RANK.admin;
  if (!privileged && member.muted_until !== null && Number(member.muted_until) > now) {
    return { error: new AppError('MUTED_IN_GROUP') };
  }
  if (!privileged && group.all_muted === 1) return { error: new AppError('GROUP_ALL_MUTED') };
  return {
    readSeq: Number(member.read_seq),
    minSeq: Number(member.min_seq),
    group: { role, allowedKinds: JSON.parse(group.allowed_kinds) as string[] },
  };
}

/**
 * What a group member's message may hold: kinds the group allows (admins send any), and
 * @all only for roles that may (refused rather than silently dropped, so the sender knows).
 */
function groupContentRefusal(
  group: { role: GroupRole; allowedKinds: readonly string[] },
  content: SendMessageBody['content'],
): AppError | null {
  const privileged = GROUP_ROLE_RANK[group.role] >= GROUP_ROLE_RANK.admin;
  if (!privileged && !group.allowedKinds.includes(content.kind)) {
    return new AppError('MESSAGE_KIND_NOT_ALLOWED');
  }
  if (content.mentionAll && !mayInGroup(group.role, 'mentionAll')) {
    return new AppError('GROUP_ROLE_REQUIRED');
  }
  return null;
}

/** The outcome of a step that may throw. */
function attempt<R>(step: () => R): Outcome<R> {
  try {
    return { ok: true, value: step() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A just-written message, from its row and the content it was written from (no re-parse). */
function messageOf(row: MessageRow, content: MessageContent): Message {
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
  };
}

/** A retry that raced its first copy in one batch; another conversation is a client bug. */
function replayedMessage(message: Message, conversationId: string): Message {
  if (message.conversationId !== conversationId) throw invalidField('clientMsgId', 'clientMsgId');
  return message;
}

/**
 * The other person of a single conversation the caller is part of; null otherwise. A pair
 * has one conversation, its ids sorted: the other order names none, or writing to it would
 * open a second chat beside the one the other person muted, hid or cleared.
 */
function singlePeer(conversationId: string, userId: string): string | null {
  const peerId = peerOf(conversationId, userId);
  if (peerId === null || peerId === userId) return null;
  return conversationId === singleConversationId(userId, peerId) ? peerId : null;
}

function isBurnt(row: { burn_at: number | null }, now: number): boolean {
  return row.burn_at !== null && Number(row.burn_at) <= now;
}

/**
 * The quote of the message at `seq`, from its stored row: its sender and an excerpt of a
 * text still there; unavailable when there is no such row (or none the quoting side may
 * see), or it is revoked, burnt, or not a text.
 */
function quoteOf(target: MessageRow | undefined, seq: number, now: number): Quote {
  if (!target || target.revoked_at !== null || isBurnt(target, now)) {
    return { seq, unavailable: true };
  }
  const content = JSON.parse(target.content) as MessageContent;
  if (content.kind !== 'text') return { seq, unavailable: true };
  return { seq, senderId: target.sender_id, text: quoteExcerpt(content.text) };
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
    lang: row.revoked_at === null ? row.lang : null,
  };
}

function toConversation(
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
