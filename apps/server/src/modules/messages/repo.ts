import type { ExpressionBuilder, Insertable } from 'kysely';
import type {
  ConversationMembersTable,
  ConversationRow,
  Database,
  Db,
  MemberRow,
  MessageRow,
  MessagesTable,
} from '../../db/schema.js';

/** A member row with its conversation's columns, as sync reads them. */
export interface MemberView extends MemberRow {
  kind: string;
  max_seq: number;
  burn_seconds: number;
  conversation_updated_at: number;
}

export interface PageRange {
  after?: number | undefined;
  before?: number | undefined;
  limit: number;
}

type MessageScope = ExpressionBuilder<Database, 'messages'>;

export class MessageRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): MessageRepo {
    return new MessageRepo(db);
  }

  // -------------------------------------------------------------------------- conversations

  findConversation(id: string): Promise<ConversationRow | undefined> {
    return this.db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findMember(conversationId: string, userId: string): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('conversation_members')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  members(conversationId: string): Promise<MemberRow[]> {
    return this.db
      .selectFrom('conversation_members')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .execute();
  }

  /** Creates a conversation and its members; rows that exist already are left as they are. */
  async createConversation(
    id: string,
    kind: 'single' | 'group',
    userIds: readonly string[],
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('conversations')
      .values({ id, kind, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const members: Insertable<ConversationMembersTable>[] = userIds.map((userId) => ({
      conversation_id: id,
      user_id: userId,
      joined_at: now,
      updated_at: now,
    }));
    await this.db
      .insertInto('conversation_members')
      .values(members)
      .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing())
      .execute();
  }

  /**
   * Takes the conversation's next seq. The row lock of this update serializes concurrent
   * senders, so seqs are handed out gap-free in commit order.
   */
  allocateSeq(
    conversationId: string,
    now: number,
  ): Promise<{ max_seq: number; burn_seconds: number }> {
    return this.db
      .updateTable('conversations')
      .set((eb) => ({ max_seq: eb('max_seq', '+', 1), updated_at: now }))
      .where('id', '=', conversationId)
      .returning(['max_seq', 'burn_seconds'])
      .executeTakeFirstOrThrow();
  }

  /** Latest activity without a new message (read marks of a single conversation). */
  async touchConversation(conversationId: string, now: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ updated_at: now })
      .where('id', '=', conversationId)
      .execute();
  }

  async setBurnSeconds(conversationId: string, seconds: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ burn_seconds: seconds })
      .where('id', '=', conversationId)
      .execute();
  }

  /** Brings a conversation back into the chat lists of members who deleted it. */
  async unhideMembers(conversationId: string, now: number): Promise<void> {
    await this.db
      .updateTable('conversation_members')
      .set({ hidden: 0, updated_at: now })
      .where('conversation_id', '=', conversationId)
      .where('hidden', '=', 1)
      .execute();
  }

  updateMember(
    conversationId: string,
    userId: string,
    changes: Partial<Pick<MemberRow, 'pinned' | 'muted' | 'hidden' | 'min_seq' | 'updated_at'>>,
  ): Promise<MemberRow | undefined> {
    return this.db
      .updateTable('conversation_members')
      .set(changes)
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Moves read_seq forward to `seq`; false if it was there already (it never moves back). */
  async advanceRead(
    conversationId: string,
    userId: string,
    seq: number,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('conversation_members')
      .set({ read_seq: seq, updated_at: now })
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .where('read_seq', '<', seq)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Starts the burn clock of messages `readerId` has now read: those others sent while
   * burning was on, up to `seq`, that are not burning yet.
   */
  async startBurn(
    conversationId: string,
    readerId: string,
    seq: number,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('messages')
      // Cast: PostgreSQL would otherwise take the parameter as an integer like burn_seconds.
      .set((eb) => ({
        burn_at: eb(eb.cast<number>(eb.val(now), 'bigint'), '+', eb('burn_seconds', '*', 1000)),
      }))
      .where('conversation_id', '=', conversationId)
      .where('sender_id', '!=', readerId)
      .where('seq', '<=', seq)
      .where('burn_seconds', '>', 0)
      .where('burn_at', 'is', null)
      .execute();
  }

  /** The caller's conversations whose conversation or member row changed after `since`. */
  changedSince(
    userId: string,
    since: number,
    afterId: string | null,
    limit: number,
  ): Promise<MemberView[]> {
    return this.db
      .selectFrom('conversation_members as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .selectAll('m')
      .select(['c.kind', 'c.max_seq', 'c.burn_seconds', 'c.updated_at as conversation_updated_at'])
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.updated_at', '>', since), eb('c.updated_at', '>', since)]))
      .$if(afterId !== null, (qb) => qb.where('m.conversation_id', '>', afterId ?? ''))
      .orderBy('m.conversation_id')
      .limit(limit)
      .execute();
  }

  /** One member row with its conversation's columns. */
  memberView(conversationId: string, userId: string): Promise<MemberView | undefined> {
    return this.db
      .selectFrom('conversation_members as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .selectAll('m')
      .select(['c.kind', 'c.max_seq', 'c.burn_seconds', 'c.updated_at as conversation_updated_at'])
      .where('m.conversation_id', '=', conversationId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();
  }

  /** read_seq of every member of these conversations other than `userId`. */
  otherMembersReadSeqs(
    conversationIds: readonly string[],
    userId: string,
  ): Promise<{ conversation_id: string; user_id: string; read_seq: number }[]> {
    if (conversationIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('conversation_members')
      .select(['conversation_id', 'user_id', 'read_seq'])
      .where('conversation_id', 'in', [...conversationIds])
      .where('user_id', '!=', userId)
      .execute();
  }

  /** Ids of users who are not official accounts, after `afterId` in id order. */
  async regularUserIds(afterId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('official', '=', 0)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  // -------------------------------------------------------------------------- messages

  findByClientMsgId(senderId: string, clientMsgId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('sender_id', '=', senderId)
      .where('client_msg_id', '=', clientMsgId)
      .executeTakeFirst();
  }

  findMessage(conversationId: string, seq: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .executeTakeFirst();
  }

  async insertMessage(row: Insertable<MessagesTable>): Promise<void> {
    await this.db.insertInto('messages').values(row).execute();
  }

  async setRevoked(conversationId: string, seq: number, now: number): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ revoked_at: now })
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .execute();
  }

  /**
   * Messages `userId` may see, ascending by seq: after their min_seq, not deleted for
   * them, not burnt. One more row than `limit` tells whether the page has more.
   */
  async page(
    userId: string,
    conversationId: string,
    minSeq: number,
    now: number,
    range: PageRange,
  ): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
    const { after, before, limit } = range;
    const newestFirst = after === undefined;
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where((eb) => visibleTo(eb, userId, conversationId, now))
      .where('seq', '>', Math.max(minSeq, after ?? 0))
      .$if(before !== undefined, (qb) => qb.where('seq', '<', before ?? 0))
      .orderBy('seq', newestFirst ? 'desc' : 'asc')
      .limit(limit + 1)
      .execute();
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    if (newestFirst) page.reverse();
    return { rows: page, hasMore };
  }

  /** The newest message `userId` may see, or undefined. */
  lastVisible(
    userId: string,
    conversationId: string,
    minSeq: number,
    now: number,
  ): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where((eb) => visibleTo(eb, userId, conversationId, now))
      .where('seq', '>', minSeq)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** True if the message was newly deleted for the user. */
  async insertHide(
    userId: string,
    conversationId: string,
    seq: number,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .insertInto('message_hides')
      .values({ user_id: userId, conversation_id: conversationId, seq, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'conversation_id', 'seq']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Deletes messages whose burn time has passed; returns how many went. */
  async deleteBurnt(now: number): Promise<number> {
    const burnt = await this.db
      .deleteFrom('messages')
      .where('burn_at', '<=', now)
      .returning(['conversation_id', 'seq'])
      .execute();
    for (const { conversation_id, seq } of burnt) {
      await this.db
        .deleteFrom('message_hides')
        .where('conversation_id', '=', conversation_id)
        .where('seq', '=', seq)
        .execute();
    }
    return burnt.length;
  }
}

function visibleTo(eb: MessageScope, userId: string, conversationId: string, now: number) {
  return eb.and([
    eb('messages.conversation_id', '=', conversationId),
    eb.or([eb('messages.burn_at', 'is', null), eb('messages.burn_at', '>', now)]),
    eb.not(
      eb.exists(
        eb
          .selectFrom('message_hides as h')
          .select('h.seq')
          .where('h.user_id', '=', userId)
          .whereRef('h.conversation_id', '=', 'messages.conversation_id')
          .whereRef('h.seq', '=', 'messages.seq'),
      ),
    ),
  ]);
}
