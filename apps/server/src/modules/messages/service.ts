import {
  singleConversationId,
  type Conversation,
  type ConversationSyncResult,
  type Message,
  type MessageContent,
  type MessagePageQuery,
  type MessagePageResult,
  type SearchMessagesQuery,
  type SearchMessagesResult,
  type SendMessageBody,
  type SystemContent,
  type UpdateConversationBody,
} from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { MemberHub } from '../../realtime/hub.js';
import type { ContactService } from '../contacts/service.js';
import type { EventService } from '../events/service.js';
import type { FileStore } from '../files/store.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { ChineseScripts } from '../translation/chinese.js';
import type { LanguageDetector } from '../translation/detect.js';
import { Appender } from './append.js';
import { ChatChanges } from './changes.js';
import { ConversationViews } from './conversations.js';
import { Delivery, type RemovedMessage } from './delivery.js';
import type { GroupReads, MediaReads, UserReads } from './directory.js';
import type { MessageRepo } from './repo.js';
import type { MessageSearch } from './search.js';
import { isBurnt, toMessage } from './rows.js';
import { SendPipeline } from './send.js';
import { memberOf, transact, type AfterCommit } from './transaction.js';
import { messageFor, type Reader } from './visibility.js';

export { SYNC_SAFETY_MS } from './conversations.js';
export type { RemovedMessage } from './delivery.js';

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

/**
 * Conversations and messages, the messaging module's one door: sending with a gap-free
 * per-conversation seq, idempotent by the sender's client message id (send.ts); pulls and
 * conversation sync (conversations.ts); read marks, revoke, delete for me, chat settings
 * and burn after reading (changes.ts); every change pushed after its commit (delivery.ts).
 * Messaging owns the conversation, member and message tables; groups and users are read
 * through their modules (directory.ts).
 */
export class MessageService {
  private readonly delivery: Delivery;
  private readonly appender: Appender;
  private readonly sends: SendPipeline;
  private readonly views: ConversationViews;
  private readonly changes: ChatChanges;

  constructor(
    private readonly deps: {
      db: Db;
      repo: MessageRepo;
      search: MessageSearch;
      clock: Clock;
      hub: MemberHub;
      events: EventService;
      contacts: ContactService;
      files: FileStore;
      detector: LanguageDetector;
      scripts: ChineseScripts;
      limits: RateLimiter;
      groups: GroupReads;
      users: UserReads;
      media: MediaReads;
    },
  ) {
    this.delivery = new Delivery(deps);
    this.appender = new Appender({ ...deps, delivery: this.delivery });
    this.sends = new SendPipeline({ ...deps, appender: this.appender, delivery: this.delivery });
    this.views = new ConversationViews(deps);
    this.changes = new ChatChanges({
      ...deps,
      appender: this.appender,
      delivery: this.delivery,
      views: this.views,
    });
  }

  // -------------------------------------------------------------------------- sending

  send(userId: string, body: SendMessageBody): Promise<Message> {
    return this.sends.send(userId, body);
  }

  /** Resolves once every send submitted so far has been written or refused. */
  drain(): Promise<void> {
    return this.sends.drain();
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
      const batch = await this.deps.users.regularUserIds(after, OFFICIAL_POST_BATCH);
      await post(batch);
      const last = batch.at(-1);
      if (last === undefined || batch.length < OFFICIAL_POST_BATCH) return result;
      after = last;
    }
  }

  /**
   * Appends a group system notice (joined, removed, renamed, …) in the caller's
   * transaction, and queues its push for after the commit.
   */
  appendNotice(
    trx: Db,
    conversationId: string,
    content: SystemContent,
    after: AfterCommit,
  ): Promise<Message> {
    return this.appender.systemNotice(trx, conversationId, content, after);
  }

  /**
   * Appends a message the server writes for a sender (a transfer, a red envelope) in the
   * caller's transaction, with a send's checks; its push goes after the commit.
   */
  appendAs(
    trx: Db,
    entry: { userId: string; conversationId: string; clientMsgId: string; content: MessageContent },
    after: AfterCommit,
  ): Promise<{ message: Message; replayed: boolean }> {
    return this.sends.appendAs(trx, entry, after);
  }

  /** Whether a user is a member of a conversation now (a group's, or a one-to-one chat). */
  async isMember(conversationId: string, userId: string, db: Db = this.deps.db): Promise<boolean> {
    const found = await this.deps.repo.in(db).membersAmong(conversationId, [userId]);
    return found.length > 0;
  }

  /** How many members a conversation has. */
  memberCount(conversationId: string, db: Db = this.deps.db): Promise<number> {
    return this.deps.repo.in(db).memberCount(conversationId);
  }

  /** Runs `work` in a transaction; pushes it queued go out after the commit. */
  transact<T>(work: (trx: Db, after: AfterCommit) => Promise<T>): Promise<T> {
    return transact(this.deps.db, this.deps.events, (trx, _pending, after) => work(trx, after));
  }

  /** Called after each commit of sent messages (texts), once their pushes are out. */
  onSent(listener: (messages: readonly Message[]) => void): void {
    this.delivery.onSent(listener);
  }

  /** Called after messages are revoked or burnt. */
  onRemoved(listener: (removed: readonly RemovedMessage[]) => void): void {
    this.delivery.onRemoved(listener);
  }

  // -------------------------------------------------------------------------- reading

  page(
    userId: string,
    conversationId: string,
    query: MessagePageQuery,
  ): Promise<MessagePageResult> {
    return this.views.page(userId, conversationId, query);
  }

  /** The caller's conversations changed after `since`, in pages of a stable order. */
  sync(
    userId: string,
    query: { since: number; cursor?: string | undefined; limit: number },
  ): Promise<ConversationSyncResult> {
    return this.views.sync(userId, query);
  }

  /** Which of these users are members of the conversation (point look-ups, any size). */
  membersAmong(conversationId: string, userIds: readonly string[], db?: Db): Promise<string[]> {
    const repo = db ? this.deps.repo.in(db) : this.deps.repo;
    return repo.membersAmong(conversationId, userIds);
  }

  /**
   * Which of these users are members of the conversation, each with the seq their history
   * starts after and the language they read it in (whom a push may reach, with what, and
   * which translation): one look-up, any size.
   */
  readersAmong(conversationId: string, userIds: readonly string[]): Promise<Reader[]> {
    return this.deps.repo.readersAmong(conversationId, userIds);
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

  /**
   * The message at `seq` as a member sees it now, or null when it is not theirs to see:
   * they are not a member, it is at or before where their history starts (joined later,
   * cleared), deleted for them, burnt, revoked, or a notice about a message before their
   * history. The pulls' own rule (visibleTo in SQL, then messageFor), so what a member
   * cannot pull, nothing else gives them.
   */
  async visibleMessage(
    userId: string,
    conversationId: string,
    seq: number,
  ): Promise<Message | null> {
    const member = await this.deps.repo.findMember(conversationId, userId);
    if (!member) return null;
    const minSeq = Number(member.min_seq);
    const [row] = await this.deps.repo.visibleAt(
      userId,
      conversationId,
      minSeq,
      [seq],
      this.deps.clock.now(),
    );
    return row ? messageFor(toMessage(row), minSeq) : null;
  }

  // -------------------------------------------------------------------------- search

  /**
   * The caller's messages holding `q` in their text, file name or place name, newest
   * first: in one conversation they are a member of, or in all of theirs.
   */
  async search(userId: string, query: SearchMessagesQuery): Promise<SearchMessagesResult> {
    const { q, conversationId, cursor, limit } = query;
    if (conversationId !== undefined) {
      await memberOf(this.deps.repo, this.deps.db, conversationId, userId);
    }
    const { rows, next } = await this.deps.search.find({
      userId,
      query: q,
      ...(conversationId === undefined ? {} : { conversationId }),
      ...(cursor === undefined ? {} : { cursor }),
      limit,
      now: this.deps.clock.now(),
    });
    return { messages: rows.map(toMessage), next };
  }

  // -------------------------------------------------------------------------- changing

  /** Moves the caller's read mark forward (never back); the other person learns it at once. */
  read(userId: string, conversationId: string, seq: number): Promise<void> {
    return this.changes.read(userId, conversationId, seq);
  }

  revoke(userId: string, conversationId: string, seq: number): Promise<Message> {
    return this.changes.revoke(userId, conversationId, seq);
  }

  /** Gives the caller's own text new words (within the edit window). */
  async edit(userId: string, conversationId: string, seq: number, text: string): Promise<Message> {
    const lang = await this.sends.textLanguage(userId, text);
    return this.changes.edit(userId, conversationId, seq, text, lang);
  }

  hide(userId: string, conversationId: string, seq: number): Promise<void> {
    return this.changes.hide(userId, conversationId, seq);
  }

  update(
    userId: string,
    conversationId: string,
    patch: UpdateConversationBody,
  ): Promise<Conversation> {
    return this.changes.update(userId, conversationId, patch);
  }

  clear(userId: string, conversationId: string): Promise<Conversation> {
    return this.changes.clear(userId, conversationId);
  }

  setBurn(userId: string, conversationId: string, seconds: number): Promise<Message> {
    return this.changes.setBurn(userId, conversationId, seconds);
  }

  typing(userId: string, conversationId: string): Promise<void> {
    return this.changes.typing(userId, conversationId);
  }

  /** Deletes messages whose burn time has passed (pulls leave them out already). */
  purgeBurnt(): Promise<number> {
    return this.changes.purgeBurnt();
  }
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
