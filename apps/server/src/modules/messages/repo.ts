import { sql } from 'kysely';
import type { Db, MessageRow } from '../../db/schema.js';
import { valuesList } from '../../db/values.js';
import { MemberRepo } from './members-repo.js';
import { findByClientMsgIdsQuery, insertMessagesQuery, padded } from './repo-queries.js';
import { visibleSql } from './visibility.js';

export interface PageRange {
  after?: number | undefined;
  before?: number | undefined;
  limit: number;
}

/** Most (sender, client id) pairs findByClientMsgIds takes at once. */
export const CLIENT_ID_LOOKUP_MAX = 256;
/** Most (conversation, seq) pairs per look-up of messages (a power of two, as VALUES pads). */
const PAIR_LOOKUP_CHUNK = 512;
/** Most message rows per INSERT (a power of two): 12 parameters each, far below the limits. */
const INSERT_CHUNK = 256;

/**
 * The messages, with what MemberRepo (members-repo.ts) does for their conversations and
 * members: one repository for the module's services, in one transaction or another.
 */
export class MessageRepo extends MemberRepo {
  override in(db: Db): MessageRepo {
    return new MessageRepo(db);
  }

  /**
   * Of these seqs, the messages `userId` can see (after `minSeq`, not revoked, burnt or
   * deleted for them), by seq: what they may forward.
   */
  visibleAt(
    userId: string,
    conversationId: string,
    minSeq: number,
    seqs: readonly number[],
    now: number,
  ): Promise<MessageRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where(visibleSql('messages', { userId, minSeq }, now))
      .where('seq', 'in', [...seqs])
      .where('revoked_at', 'is', null)
      .orderBy('seq')
      .execute();
  }

  /** Messages of a conversation by seq (any state; callers decide what to serve). */
  bySeqs(conversationId: string, seqs: readonly number[]): Promise<MessageRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('seq', 'in', [...seqs])
      .execute();
  }

  /**
   * Messages at these (conversation, seq) pairs, in any state (what replies quote), one
   * query per PAIR_LOOKUP_CHUNK pairs; pairs with no message are left out.
   */
  async messagesAt(pairs: readonly (readonly [string, number])[]): Promise<MessageRow[]> {
    const found: MessageRow[] = [];
    for (let start = 0; start < pairs.length; start += PAIR_LOOKUP_CHUNK) {
      // Cast: PostgreSQL would otherwise read the seqs of a VALUES list as text.
      const tuples = pairs
        .slice(start, start + PAIR_LOOKUP_CHUNK)
        .map(([conversationId, seq]) => [conversationId, sql`cast(${seq} as bigint)`]);
      const { rows } = await sql<MessageRow>`
        with q (conversation_id, seq) as (${valuesList(tuples)})
        select distinct m.* from q
        inner join messages m on m.conversation_id = q.conversation_id and m.seq = q.seq`.execute(
        this.db,
      );
      found.push(...rows);
    }
    return found;
  }

  findByClientMsgId(senderId: string, clientMsgId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('sender_id', '=', senderId)
      .where('client_msg_id', '=', clientMsgId)
      .executeTakeFirst();
  }

  /**
   * Stored messages among these (sender, client id) pairs, in one query. The list is
   * padded to a power of two so that a few SQL texts serve every batch size (SQLite keeps
   * each compiled); callers keep batches to at most CLIENT_ID_LOOKUP_MAX pairs.
   */
  async findByClientMsgIds(pairs: readonly (readonly [string, string])[]): Promise<MessageRow[]> {
    if (pairs.length === 0) return [];
    if (pairs.length > CLIENT_ID_LOOKUP_MAX) throw new Error('too many client ids in one look-up');
    const list = padded(pairs);
    const { rows } = await findByClientMsgIdsQuery(list.length).execute(
      this.db,
      ([row, column]) => list[row]![column],
    );
    return rows;
  }

  findMessage(conversationId: string, seq: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .executeTakeFirst();
  }

  /**
   * Inserts in statements of power-of-two row counts (at most INSERT_CHUNK rows: bound
   * parameters are limited), so a few SQL texts serve every batch size and SQLite keeps
   * each compiled: 120 rows go as 64 + 32 + 16 + 8.
   */
  async insertMessages(rows: readonly MessageRow[]): Promise<void> {
    let start = 0;
    while (start < rows.length) {
      let size = INSERT_CHUNK;
      while (size > rows.length - start) size /= 2;
      const first = start;
      await insertMessagesQuery(size).execute(
        this.db,
        ([row, column]) => rows[first + row]![column],
      );
      start += size;
    }
  }

  async setRevoked(conversationId: string, seq: number, now: number): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ revoked_at: now, search_text: null, search_grams: null })
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .execute();
  }

  /** A text's new words: its content, language and search text, and when it was edited. */
  async setEdited(
    conversationId: string,
    seq: number,
    change: Pick<MessageRow, 'content' | 'lang' | 'search_text' | 'search_grams' | 'edited_at'>,
  ): Promise<void> {
    await this.db
      .updateTable('messages')
      .set(change)
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
      .where('conversation_id', '=', conversationId)
      .where(visibleSql('messages', { userId, minSeq }, now))
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

  /**
   * The last message of each conversation as the user sees it in the list, in one
   * statement per chunk: the newest after its `minSeq` (where the user's history starts)
   * that is not burnt, not deleted for the user, and no notice about a message from
   * before their history (visibleTo, in SQL), found by walking its seqs down from the
   * newest. Conversations with none are left out.
   */
  async lastVisibleMany(
    userId: string,
    entries: readonly { conversationId: string; minSeq: number }[],
    now: number,
  ): Promise<MessageRow[]> {
    const found: MessageRow[] = [];
    for (let start = 0; start < entries.length; start += PAIR_LOOKUP_CHUNK) {
      // Cast: PostgreSQL would otherwise read the seqs of a VALUES list as text.
      const tuples = entries
        .slice(start, start + PAIR_LOOKUP_CHUNK)
        .map(({ conversationId, minSeq }) => [conversationId, sql`cast(${minSeq} as bigint)`]);
      const { rows } = await sql<MessageRow>`
        with q (conversation_id, min_seq) as (${valuesList(tuples)})
        select distinct m.* from q
        inner join messages m on m.conversation_id = q.conversation_id and m.seq = (
          select x.seq from messages x
          where x.conversation_id = q.conversation_id
            and ${visibleSql('x', { userId, minSeq: sql.ref<number>('q.min_seq') }, now)}
          order by x.seq desc
          limit 1
        )`.execute(this.db);
      found.push(...rows);
    }
    return found;
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
  async deleteBurnt(now: number): Promise<{ conversation_id: string; seq: number }[]> {
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
    return burnt.map(({ conversation_id, seq }) => ({ conversation_id, seq: Number(seq) }));
  }
}
