import {
  GROUP_ROLE_RANK,
  MERGED_DEPTH_MAX,
  groupIdOf,
  isSentContent,
  mediaIdOf,
  mediaIdsOf,
  groupRoleSchema,
  mayInGroup,
  type GroupRole,
  type MergedContent,
  type MergedItem,
  type Message,
  type MessageContent,
  type SendMessageBody,
  type SentContent,
  type UploadedMedia,
} from '@teltlk/protocol';
import type { Db, MemberRow, MessageRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import type { ContactService } from '../contacts/service.js';
import type { ChineseScript, ChineseScripts } from '../translation/chinese.js';
import { languageOf, type Guess, type LanguageDetector } from '../translation/detect.js';
import type { RateLimiter } from '../limits/limiter.js';
import { LARGE_GROUP_MEMBERS } from '../limits/rules.js';
import type { Appender, Appended, NewEntry } from './append.js';
import type { Delivery } from './delivery.js';
import type { GroupReads, MediaReads, UserReads } from './directory.js';
import { GroupCommit, type Outcome } from './group-commit.js';
import { CLIENT_ID_LOOKUP_MAX, type MessageRepo } from './repo.js';
import { messageOf, replayed, replayedMessage, singlePeer } from './rows.js';
import type { AfterCommit } from './transaction.js';

/** Most sends written in one transaction. */
const SEND_BATCH_MAX = 1000;
/** Group sizes kept for the send limit; past this many the memory starts over. */
const GROUP_SIZES_REMEMBERED = 10_000;

/** A send waiting for its group commit. */
export interface SendRequest {
  userId: string;
  body: SendMessageBody;
  /** The detector's guess at the text's language; null for what is not text. */
  guess: Guess | null;
  /** Which Chinese script the text is written in, if any. */
  script: ChineseScript;
}

/**
 * A send as it goes through the stages of its batch; a stage that refuses or answers it
 * settles its `outcome`, and later stages only see the sends still open.
 */
interface Send {
  request: SendRequest;
  /** Sender and client message id: what makes a retry the same send. */
  key: string;
  outcome?: Outcome<Message>;
}

/** A sender's right to write, as read in the batch's transaction. */
interface Writer {
  readSeq: number;
  /** The seq the sender's history starts after (what they may quote). */
  minSeq: number;
  group?: { role: GroupRole; allowedKinds: readonly string[] };
}

/** Whether a sender may write to a conversation, keyed by `conversation\nuser`. */
type WriterState = Writer | { error: AppError };

/** A send that may be written: who writes, with their read mark. */
interface Authorized {
  send: Send;
  writer: Writer;
}

/** A send ready to append: its entry, with mentions checked and its language known. */
interface Composed {
  send: Send;
  conversationId: string;
  entry: NewEntry;
}

/** A written send and its row. */
interface Written {
  send: Send;
  appended: Appended;
}

/** What the language stage reads for the open sends, before the transaction. */
interface Languages {
  /** Mother tongues of senders whose texts need one to tell their language. */
  tongues: Map<string, string>;
}

/**
 * The send pipeline. Sends are group-committed: those that arrive while a transaction
 * runs are written together in the next one, and each resolves once the commit holding
 * it is done. A batch goes through named stages:
 *
 * 1. **dedupe**: the same client id twice in the batch makes later copies retries;
 * 2. **language**: each text's language, from the detector's guess and its Chinese
 *    script (both told before the send joined the batch), and the sender's mother tongue
 *    when the guess is unsure;
 * 3. in one transaction: **replay** (a client id already stored answers its message),
 *    **authorize** (once per sender and conversation: membership, blocks, the group's
 *    rules), **compose** (mentions of people who blocked the sender dropped, cards written
 *    from their accounts) and
 *    **append** (seqs allocated in arrival order, rows inserted);
 * 4. **present**: outcomes settled, pushes and listeners after the commit.
 */
export class SendPipeline {
  private readonly commits: GroupCommit<SendRequest, Message>;
  private readonly groupSizes = new Map<string, { members: number; until: number }>();

  constructor(
    private readonly deps: {
      db: Db;
      repo: MessageRepo;
      clock: Clock;
      appender: Appender;
      delivery: Delivery;
      contacts: ContactService;
      detector: LanguageDetector;
      scripts: ChineseScripts;
      limits: RateLimiter;
      groups: GroupReads;
      users: UserReads;
      media: MediaReads;
    },
  ) {
    this.commits = new GroupCommit({
      writeBatch: (requests) => this.writeBatch(requests),
      writeAlone: (request) => this.writeAlone(request),
      maxBatch: SEND_BATCH_MAX,
    });
  }

  /**
   * Stores the message once and pushes it to every member's sockets. A retry with the
   * same client message id returns the stored message (also when it races the first).
   */
  async send(userId: string, body: SendMessageBody): Promise<Message> {
    await this.limit(userId, body.conversationId);
    // Detection runs on the detector's threads before the send joins a batch, so a batch
    // never waits for it: while one send's text is detected, earlier ones are written. A
    // detector that fails costs the guess, never the send (the text counts as unsure).
    const { content } = body;
    if (content.kind !== 'text') {
      return this.commits.submit({ userId, body, guess: null, script: 'either' });
    }
    const { guess, script } = await this.guess(content.text);
    return this.commits.submit({ userId, body, guess, script });
  }

  /** The language of a text `userId` writes, as a send of it would have (an edit's). */
  async textLanguage(userId: string, text: string): Promise<string | null> {
    const { guess, script } = await this.guess(text);
    const { tongues } = await this.language([{ request: { userId, guess } }]);
    return languageOf(guess, tongues.get(userId) ?? null, script);
  }

  private async guess(text: string): Promise<{ guess: Guess; script: ChineseScript }> {
    const [guess, script] = await Promise.all([
      this.deps.detector.guessOne(text).catch((): Guess => ({ language: '', reliable: false })),
      this.deps.scripts.scriptOf(text),
    ]);
    return { guess, script };
  }

  /**
   * The send limits, before anything is written: per user, and tighter into a large group,
   * where one message becomes a push to every online member on every node.
   */
  private async limit(userId: string, conversationId: string): Promise<void> {
    const { limits } = this.deps;
    await limits.consume('sendPerUser', userId);
    const groupId = groupIdOf(conversationId);
    if (groupId === null) return;
    if ((await this.groupSize(groupId)) >= LARGE_GROUP_MEMBERS) {
      await limits.consume('largeGroupSendPerUser', userId);
    }
  }

  /** A group's member count, remembered for a minute: a limit needs its size, not its exact count. */
  private async groupSize(groupId: string): Promise<number> {
    const now = this.deps.clock.now();
    const known = this.groupSizes.get(groupId);
    if (known && known.until > now) return known.members;
    const members = await this.deps.groups.memberCount(groupId);
    if (this.groupSizes.size >= GROUP_SIZES_REMEMBERED) this.groupSizes.clear();
    this.groupSizes.set(groupId, { members, until: now + MINUTE });
    return members;
  }

  /** Resolves once every send submitted so far has been written or refused. */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  /**
   * Writes a batch of sends in one transaction. Permission and block checks run once per
   * sender and conversation of the batch, inside the transaction, so each message is
   * checked against everything committed before it; a refused send fails alone. Seqs go
   * to each conversation's messages in arrival order. Pushes follow the commit.
   */
  private async writeBatch(requests: readonly SendRequest[]): Promise<Outcome<Message>[]> {
    const sends = requests.map((request): Send => ({
      request,
      key: `${request.userId}\n${request.body.clientMsgId}`,
    }));
    const { fresh, retries } = dedupe(sends);
    const languages = await this.language(fresh);
    const now = this.deps.clock.now();
    const after: AfterCommit = [];
    const written = await this.deps.db.transaction().execute(async (trx) => {
      const open = await this.replay(trx, fresh);
      const authorized = await this.authorize(trx, open, now);
      const composed = await this.compose(trx, authorized, languages);
      return this.append(trx, composed, now, after);
    });
    this.present(written, after);
    for (const { retry, first } of retries) retry.outcome = asRetryOf(first, retry);
    return sends.map(
      (send) => send.outcome ?? { ok: false, error: new Error('send left without an outcome') },
    );
  }

  /**
   * One send in a transaction of its own, after its batch failed as a whole: a retry that
   * raced its first copy (the unique key on sender and client id refused one) gets the
   * stored message.
   */
  private async writeAlone(request: SendRequest): Promise<Message> {
    const { userId, body } = request;
    try {
      const [outcome] = await this.writeBatch([request]);
      if (!outcome) throw new Error('send left without an outcome');
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    } catch (error) {
      if (error instanceof AppError) throw error;
      const raced = await this.deps.repo.findByClientMsgId(userId, body.clientMsgId);
      if (raced) return replayed(raced, body.conversationId);
      throw error;
    }
  }

  // -------------------------------------------------------------------------- stages

  /**
   * The mother tongues the batch's languages need: a text unclear on its own is taken to
   * be in its sender's mother tongue, and a Chinese one readable in either script in the
   * sender's variety.
   */
  private async language(
    sends: readonly { request: Pick<SendRequest, 'userId' | 'guess'> }[],
  ): Promise<Languages> {
    const unsure = new Set<string>();
    for (const { request } of sends) {
      const { guess, userId } = request;
      if (guess?.reliable === false || guess?.language === 'zh') unsure.add(userId);
    }
    return { tongues: await this.deps.users.motherTongues([...unsure]) };
  }

  /** Settles the sends whose client id is stored already with that message; answers the rest. */
  private async replay(trx: Db, sends: readonly Send[]): Promise<Send[]> {
    const repo = this.deps.repo.in(trx);
    const stored = new Map<string, Awaited<ReturnType<MessageRepo['findByClientMsgIds']>>[0]>();
    for (let start = 0; start < sends.length; start += CLIENT_ID_LOOKUP_MAX) {
      const pairs = sends
        .slice(start, start + CLIENT_ID_LOOKUP_MAX)
        .map(({ request }) => [request.userId, request.body.clientMsgId] as const);
      for (const row of await repo.findByClientMsgIds(pairs)) {
        stored.set(`${row.sender_id}\n${row.client_msg_id}`, row);
      }
    }
    return sends.filter((send) => {
      const row = stored.get(send.key);
      if (row) send.outcome = attempt(() => replayed(row, send.request.body.conversationId));
      return !row;
    });
  }

  /** Settles the sends their senders may not make; answers the rest with their writers. */
  private async authorize(trx: Db, sends: readonly Send[], now: number): Promise<Authorized[]> {
    const wanted = new Map<string, { userId: string; conversationId: string }>();
    for (const { request } of sends) {
      const { userId, body } = request;
      wanted.set(writerKey(body.conversationId, userId), {
        userId,
        conversationId: body.conversationId,
      });
    }
    const writers = await this.checkWriters(trx, [...wanted.values()], now);
    const authorized: Authorized[] = [];
    for (const send of sends) {
      const { userId, body } = send.request;
      const state = writers.get(writerKey(body.conversationId, userId))!;
      const refused =
        'error' in state
          ? state.error
          : state.group
            ? groupContentRefusal(state.group, body.content)
            : null;
      if (refused) send.outcome = { ok: false, error: refused };
      else authorized.push({ send, writer: state as Writer });
    }
    return authorized;
  }

  /**
   * Each send's entry. A block holds in groups: a mention of someone who blocked the
   * sender is dropped (the message still goes); one look-up for the batch. A card is
   * written from its account (a card of nobody is refused).
   */
  private async compose(
    trx: Db,
    sends: readonly Authorized[],
    languages: Languages,
  ): Promise<Composed[]> {
    const mentioned = sends.flatMap(({ send }) => {
      const { userId, body } = send.request;
      const mentions = body.content.kind === 'text' ? body.content.mentions : undefined;
      return (mentions ?? []).map((id) => [id, userId] as const);
    });
    const blocks = await this.deps.contacts.blocksAmong(mentioned, trx);
    // Cards are written from the accounts as they are now, not from what the sender sent.
    const cards = await this.deps.contacts.cards(
      sends.flatMap(({ send }) => {
        const { content } = send.request.body;
        return content.kind === 'card' ? [content.user.id] : [];
      }),
      trx,
    );
    const media = await this.mediaFor(trx, sends);
    const merged = await this.mergedFor(trx, sends);
    return sends.flatMap(({ send, writer }): Composed[] => {
      const { userId, body, guess, script } = send.request;
      const mediaId = mediaIdOf(body.content);
      let content: MessageContent;
      let quote: { seq: number; minSeq: number } | undefined;
      if (body.content.kind === 'text') {
        const { quote: ref, mentions, ...rest } = body.content;
        const allowed = mentions?.filter((id) => !blocks.has(`${id}\n${userId}`));
        content = allowed?.length ? { ...rest, mentions: allowed } : rest;
        if (ref) quote = { seq: ref.seq, minSeq: writer.minSeq };
      } else if (body.content.kind === 'merged') {
        const record = merged.get(send)!;
        if (record instanceof AppError) {
          send.outcome = { ok: false, error: record };
          return [];
        }
        content = record;
      } else if (body.content.kind === 'card') {
        const user = cards.get(body.content.user.id);
        if (!user) {
          send.outcome = { ok: false, error: new AppError('USER_NOT_FOUND') };
          return [];
        }
        content = { ...body.content, user };
      } else if (mediaId !== null) {
        // Written from what was stored, as its sender may send it (theirs, or forwarded).
        const stored = media.get(`${userId}\n${mediaId}`);
        // A favourite sticker is a stored photo.
        const kind = body.content.kind === 'face' ? 'image' : body.content.kind;
        if (!stored || stored.kind !== kind) {
          send.outcome = { ok: false, error: new AppError('MEDIA_NOT_FOUND') };
          return [];
        }
        const forwarded = 'forwarded' in body.content && body.content.forwarded;
        const written: MessageContent =
          stored.kind === 'image' && body.content.kind === 'face'
            ? { kind: 'face', image: stored.image }
            : stored;
        content = { ...written, ...(forwarded ? { forwarded } : {}) };
      } else {
        content = body.content;
      }
      // Only a text has a language (a guess is made for texts alone).
      const lang = guess ? languageOf(guess, languages.tongues.get(userId) ?? null, script) : null;
      const entry = {
        senderId: userId,
        readSeq: writer.readSeq,
        clientMsgId: body.clientMsgId,
        content,
        lang,
        ...(quote ? { quote } : {}),
      };
      return [{ send, conversationId: body.conversationId, entry }];
    });
  }

  /**
   * The chat history records of the batch's merged forwards, written from the stored
   * messages their senders can see (and the senders' names now); or why not.
   */
  private async mergedFor(
    trx: Db,
    sends: readonly Authorized[],
  ): Promise<Map<Send, MergedContent | AppError>> {
    const records = new Map<Send, MergedContent | AppError>();
    const repo = this.deps.repo.in(trx);
    const now = this.deps.clock.now();
    for (const { send } of sends) {
      const { userId, body } = send.request;
      if (body.content.kind !== 'merged') continue;
      const { conversationId, seqs } = body.content.source;
      const member = await repo.findMember(conversationId, userId);
      if (!member) {
        records.set(send, new AppError('CONVERSATION_NOT_FOUND'));
        continue;
      }
      const rows = await repo.visibleAt(userId, conversationId, Number(member.min_seq), seqs, now);
      const sent = rows.flatMap((row) => {
        const content = JSON.parse(row.content) as MessageContent;
        return isSentContent(content) ? [{ row, content }] : [];
      });
      if (sent.length === 0) {
        records.set(send, new AppError('MESSAGE_NOT_FOUND'));
        continue;
      }
      // A record forwarded alone goes on as it is, not inside another.
      const lone = sent.length === 1 ? sent[0]!.content : null;
      if (lone?.kind === 'merged') {
        records.set(send, lone);
        continue;
      }
      const items = sent.map(({ row, content }) => ({ row, content: asItemContent(content) }));
      records.set(
        send,
        items.some(({ content }) => content === null)
          ? new AppError('MERGED_TOO_DEEP', { max: MERGED_DEPTH_MAX })
          : {
              kind: 'merged',
              items: await this.named(
                trx,
                items.map(({ row, content }) => ({ row, content: content! })),
              ),
            },
      );
    }
    return records;
  }

  /** Items of a record with their senders' names as they are now. */
  private async named(
    trx: Db,
    items: readonly { row: MessageRow; content: MergedItem['content'] }[],
  ): Promise<MergedItem[]> {
    const cards = await this.deps.contacts.cards(
      [...new Set(items.map(({ row }) => row.sender_id))],
      trx,
    );
    return items.map(({ row, content }) => ({
      senderId: row.sender_id,
      senderName: cards.get(row.sender_id)?.nickname ?? '',
      createdAt: Number(row.created_at),
      content,
    }));
  }

  /** The stored media the batch's media sends name, keyed by `sender\nmedia id`. */
  private async mediaFor(
    trx: Db,
    sends: readonly Authorized[],
  ): Promise<Map<string, UploadedMedia>> {
    const wanted = new Map<string, string[]>();
    for (const { send } of sends) {
      const { userId, body } = send.request;
      const id = mediaIdOf(body.content);
      if (id !== null) wanted.set(userId, [...(wanted.get(userId) ?? []), id]);
    }
    const found = new Map<string, UploadedMedia>();
    for (const [userId, ids] of wanted) {
      for (const [id, media] of await this.deps.media.forSend(userId, ids, trx)) {
        found.set(`${userId}\n${id}`, media);
      }
    }
    return found;
  }

  /**
   * Appends the entries, each conversation's in arrival order. Conversation rows are
   * locked in id order, so two batches never wait on each other in a cycle (PostgreSQL).
   */
  private async append(
    trx: Db,
    sends: readonly Composed[],
    now: number,
    after: AfterCommit,
  ): Promise<Written[]> {
    const byConversation = new Map<string, Composed[]>();
    for (const composed of sends) {
      const list = byConversation.get(composed.conversationId) ?? [];
      list.push(composed);
      byConversation.set(composed.conversationId, list);
    }
    const groups = [...byConversation.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([conversationId, list]) => ({ conversationId, list }));
    const appended = await this.deps.appender.appendMany(
      trx,
      groups.map(({ conversationId, list }) => ({
        conversationId,
        entries: list.map(({ entry }) => entry),
      })),
      now,
      after,
    );
    const written = groups.flatMap(({ list }, group) =>
      list.map(({ send }, position) => ({ send, appended: appended[group]![position]! })),
    );
    // A video's poster is linked too: its readers see it before it plays.
    const links = written.flatMap(({ appended: { row, content } }) =>
      mediaIdsOf(content).map((mediaId) => ({
        mediaId,
        conversationId: row.conversation_id,
        seq: row.seq,
      })),
    );
    if (links.length > 0) await this.deps.media.linkMessages(links, trx);
    return written;
  }

  /** Settles the written sends, then pushes them and tells the listeners (after commit). */
  private present(written: readonly Written[], after: AfterCommit): void {
    const { delivery } = this.deps;
    const messages = written.map(({ send, appended }) => {
      const message = messageOf(appended.row, appended.content);
      send.outcome = { ok: true, value: message };
      return message;
    });
    delivery.messages(messages);
    for (const run of after) run();
    delivery.sent(messages);
  }

  /**
   * Appends a message the server writes for a sender (a transfer, a red envelope) in the
   * caller's transaction, after the checks every send has: membership, blocks, the
   * group's mutes. A client id already stored answers its message (`replayed`). The push
   * goes out after the commit.
   */
  async appendAs(
    trx: Db,
    entry: { userId: string; conversationId: string; clientMsgId: string; content: MessageContent },
    after: AfterCommit,
  ): Promise<{ message: Message; replayed: boolean }> {
    const { userId, conversationId, clientMsgId, content } = entry;
    const [stored] = await this.deps.repo.in(trx).findByClientMsgIds([[userId, clientMsgId]]);
    if (stored) return { message: replayed(stored, conversationId), replayed: true };
    const now = this.deps.clock.now();
    const writers = await this.checkWriters(trx, [{ userId, conversationId }], now);
    const state = writers.get(writerKey(conversationId, userId))!;
    if ('error' in state) throw state.error;
    const [appended] = await this.deps.appender.appendMany(
      trx,
      [
        {
          conversationId,
          entries: [{ senderId: userId, readSeq: state.readSeq, clientMsgId, content }],
        },
      ],
      now,
      after,
    );
    const message = messageOf(appended![0]!.row, content);
    after.push(() => this.deps.delivery.messages([message]));
    return { message, replayed: false };
  }

  // -------------------------------------------------------------------------- writers

  /**
   * Who may write: in a single conversation both people, while the recipient has not
   * blocked the sender and they may message each other (checked on every write, so a
   * block after the conversation began still refuses); the first message creates the
   * conversation. In any other conversation, members only. Anything else looks absent.
   * The look-ups are one query each for the whole list.
   */
  private async checkWriters(
    trx: Db,
    writers: readonly { userId: string; conversationId: string }[],
    now: number,
  ): Promise<Map<string, WriterState>> {
    const repo = this.deps.repo.in(trx);
    const states = new Map<string, WriterState>();
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
        members.map((member) => [writerKey(member.conversation_id, member.user_id), member]),
      );
      const groupIds = new Set(
        members.flatMap((member) => groupIdOf(member.conversation_id) ?? []),
      );
      const groups = new Map(
        (await this.deps.groups.groupsByIds([...groupIds], trx)).map((group) => [group.id, group]),
      );
      for (const [position, { userId, conversationId }] of chunk.entries()) {
        const key = writerKey(conversationId, userId);
        const peerId = peers[position];
        const member = memberRows.get(key);
        if (!peerId) {
          const groupId = groupIdOf(conversationId);
          const group = groupId === null ? undefined : groups.get(groupId);
          if (!member) states.set(key, { error: new AppError('CONVERSATION_NOT_FOUND') });
          else if (group) states.set(key, groupWriter(member, group, now));
          else {
            states.set(key, { readSeq: Number(member.read_seq), minSeq: Number(member.min_seq) });
          }
          continue;
        }
        const refused = refusals.get(`${userId}\n${peerId}`);
        if (refused) {
          states.set(key, { error: refused });
          continue;
        }
        if (!member) await repo.createConversation(conversationId, 'single', [userId, peerId], now);
        states.set(key, {
          readSeq: Number(member?.read_seq ?? 0),
          minSeq: Number(member?.min_seq ?? 0),
        });
      }
    }
    return states;
  }
}

function writerKey(conversationId: string, userId: string): string {
  return `${conversationId}\n${userId}`;
}

/** Splits a batch into first copies and retries of a client id already in the batch. */
function dedupe(sends: readonly Send[]): {
  fresh: Send[];
  retries: { retry: Send; first: Send }[];
} {
  const firstOf = new Map<string, Send>();
  const fresh: Send[] = [];
  const retries: { retry: Send; first: Send }[] = [];
  for (const send of sends) {
    const first = firstOf.get(send.key);
    if (first) retries.push({ retry: send, first });
    else {
      firstOf.set(send.key, send);
      fresh.push(send);
    }
  }
  return { fresh, retries };
}

/** A retry that raced its first copy in one batch gets what the first got. */
function asRetryOf(first: Send, retry: Send): Outcome<Message> {
  const outcome = first.outcome ?? { ok: false, error: new Error('send left without an outcome') };
  if (!outcome.ok) return outcome;
  return attempt(() => replayedMessage(outcome.value, retry.request.body.conversationId));
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
 * What a record keeps of a message: a reply without its quote, no forwarded mark; null
 * for a record as deep as records go, which no record may hold.
 */
function asItemContent(content: SentContent): MergedItem['content'] | null {
  if (content.kind === 'text') {
    const { quote: _quote, forwarded: _forwarded, ...rest } = content;
    return rest;
  }
  if (content.kind === 'merged') {
    // Its type allows MERGED_DEPTH_MAX levels; one level less fits in an item.
    return mergedDepth(content) < MERGED_DEPTH_MAX
      ? (content as Extract<MergedItem['content'], { kind: 'merged' }>)
      : null;
  }
  const { forwarded: _forwarded, ...rest } = content;
  return rest;
}

/** How many records deep a record goes (1: it holds no record). */
function mergedDepth(record: MergedContent): number {
  let deepest = 0;
  for (const { content } of record.items) {
    if (content.kind === 'merged') deepest = Math.max(deepest, mergedDepth(content));
  }
  return 1 + deepest;
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
  if (content.kind === 'text' && content.mentionAll && !mayInGroup(group.role, 'mentionAll')) {
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
