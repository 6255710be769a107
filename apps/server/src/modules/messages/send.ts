import {
  groupIdOf,
  mediaIdsOf,
  type Message,
  type MessageContent,
  type SendMessageBody,
} from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import type { ContactService } from '../contacts/service.js';
import type { ChineseScript, ChineseScripts } from '../translation/chinese.js';
import { languageOf, type Guess, type LanguageDetector } from '../translation/detect.js';
import type { RateLimiter } from '../limits/limiter.js';
import { LARGE_GROUP_MEMBERS } from '../limits/rules.js';
import type { Appender, Appended } from './append.js';
import type { Delivery } from './delivery.js';
import type { GroupReads, MediaReads, UserReads } from './directory.js';
import { GroupCommit, type Outcome } from './group-commit.js';
import { CLIENT_ID_LOOKUP_MAX, type MessageRepo } from './repo.js';
import { messageOf, replayed, replayedMessage } from './rows.js';
import { Composer } from './send-compose.js';
import {
  attempt,
  type Authorized,
  type Composed,
  type Languages,
  type Send,
  type SendRequest,
} from './send-stages.js';
import { checkWriters, groupContentRefusal, writerKey, type Writer } from './send-writers.js';
import type { AfterCommit } from './transaction.js';

/** Most sends written in one transaction. */
const SEND_BATCH_MAX = 1000;
/** Group sizes kept for the send limit; past this many the memory starts over. */
const GROUP_SIZES_REMEMBERED = 10_000;

/** A written send and its row. */
interface Written {
  send: Send;
  appended: Appended;
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
  private readonly composer: Composer;
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
    this.composer = new Composer(deps);
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
      const composed = await this.composer.compose(trx, authorized, languages);
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
    const writers = await checkWriters(this.deps, trx, [...wanted.values()], now);
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
    const writers = await checkWriters(this.deps, trx, [{ userId, conversationId }], now);
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
