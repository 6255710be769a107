import type { Insertable } from 'kysely';
import type { ConversationMembersTable, ConversationRow, Db, MemberRow } from '../../db/schema.js';
import { userColumns } from '../users/port.js';
import {
  advanceReadQuery,
  advanceReadsQuery,
  allocateSeqsQuery,
  findMembersQuery,
  padded,
  startBurnsQuery,
  unhideQuery,
  type BurnRead,
  type ReadMark,
} from './repo-queries.js';
import type { Reader } from './visibility.js';

/** A member row with its conversation's columns, as sync reads them. */
export interface MemberView extends MemberRow {
  kind: string;
  max_seq: number;
  burn_seconds: number;
  mention_all_seq: number;
  conversation_updated_at: number;
}

/** Most user ids per look-up of online members (bound parameters are limited). */
const ONLINE_LOOKUP_CHUNK = 1000;

/**
 * Conversations and their members: seqs handed out, read marks and the burn clocks they
 * start, mentions, and who reads a conversation in which language. The message rows are
 * MessageRepo's (repo.ts), which reads and writes these too.
 */
export class MemberRepo {
  constructor(protected readonly db: Db) {}

  in(db: Db): MemberRepo {
    return new MemberRepo(db);
  }

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

  /** Member rows of these (conversation, user) pairs, in one query (a pair may come twice). */
  async findMembers(pairs: readonly (readonly [string, string])[]): Promise<MemberRow[]> {
    if (pairs.length === 0) return [];
    const list = padded(pairs);
    const { rows } = await findMembersQuery(list.length).execute(
      this.db,
      ([row, column]) => list[row]![column],
    );
    return rows;
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
   * Takes the conversation's next `count` seqs, up to the max_seq returned. The row lock of
   * this update serializes concurrent senders, so seqs are handed out gap-free in commit order.
   */
  async allocateSeqs(
    conversationId: string,
    count: number,
    now: number,
  ): Promise<{ max_seq: number; burn_seconds: number }> {
    const values = { conversationId, count, now };
    const { rows } = await allocateSeqsQuery.execute(this.db, (slot) => values[slot]);
    const row = rows[0];
    if (!row) throw new Error(`no conversation ${conversationId} to append to`);
    return row;
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

  /** Brings conversations back into the chat lists of members who deleted them. */
  async unhideMembers(conversationIds: readonly string[], now: number): Promise<void> {
    if (conversationIds.length === 0) return;
    const list = padded(conversationIds);
    await unhideQuery(list.length).execute(this.db, (slot) => (slot === 'now' ? now : list[slot]));
  }

  updateMember(
    conversationId: string,
    userId: string,
    changes: Partial<
      Pick<
        MemberRow,
        'pinned' | 'muted' | 'hidden' | 'min_seq' | 'updated_at' | 'translate_off' | 'translate_to'
      >
    >,
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
    const values = { conversationId, userId, seq, now };
    const result = await advanceReadQuery.execute(this.db, (slot) => values[slot]);
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  /**
   * Starts the burn clock of messages `readerId` has now read: those others sent while
   * burning was on, after `fromSeq` (their previous read mark) up to `seq`, that are not
   * burning yet.
   */
  async startBurn(
    conversationId: string,
    readerId: string,
    fromSeq: number,
    seq: number,
    now: number,
  ): Promise<void> {
    await this.startBurns([{ conversationId, readerId, fromSeq, seq }], now);
  }

  /**
   * Many read marks at once, each moved forward to its seq (never back): one statement for
   * a whole batch of sends, whose senders have read up to their own new messages. The
   * rows' updated_at is left as it is: the same sends moved their conversations' updated_at,
   * which sync reads beside it, and each row changes in one index (its read mark's) instead
   * of two.
   */
  async advanceReads(marks: readonly ReadMark[]): Promise<void> {
    if (marks.length === 0) return;
    const list = padded(marks);
    await advanceReadsQuery(list.length).execute(this.db, ([index, field]) => list[index]![field]);
  }

  /**
   * startBurn for many readers at once: each reader's range from `fromSeq` (exclusive) to
   * `seq`, of messages others sent with burning on that are not burning yet.
   */
  async startBurns(reads: readonly BurnRead[], now: number): Promise<void> {
    if (reads.length === 0) return;
    const list = padded(reads);
    await startBurnsQuery(list.length).execute(this.db, (slot) =>
      slot === 'now' ? now : list[slot[0]]![slot[1]],
    );
  }

  /** The caller's conversations whose conversation or member row changed after `since`. */
  changedSince(
    userId: string,
    since: number,
    afterId: string | null,
    limit: number,
  ): Promise<MemberView[]> {
    return this.views()
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.updated_at', '>', since), eb('c.updated_at', '>', since)]))
      .$if(afterId !== null, (qb) => qb.where('m.conversation_id', '>', afterId ?? ''))
      .orderBy('m.conversation_id')
      .limit(limit)
      .execute();
  }

  /** One member row with its conversation's columns. */
  memberView(conversationId: string, userId: string): Promise<MemberView | undefined> {
    return this.views()
      .where('m.conversation_id', '=', conversationId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Member rows with their conversations' columns (MemberView). */
  private views() {
    return this.db
      .selectFrom('conversation_members as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .selectAll('m')
      .select([
        'c.kind',
        'c.max_seq',
        'c.burn_seconds',
        'c.mention_all_seq',
        'c.updated_at as conversation_updated_at',
      ]);
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

  async memberCount(conversationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('conversation_members')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Which of these users are members of the conversation: point look-ups on the primary
   * key, whatever the size of the group.
   */
  async membersAmong(conversationId: string, userIds: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    for (let start = 0; start < userIds.length; start += ONLINE_LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .where('user_id', 'in', userIds.slice(start, start + ONLINE_LOOKUP_CHUNK))
        .execute();
      for (const row of rows) found.push(row.user_id);
    }
    return found;
  }

  /**
   * Which of these users are members of the conversation, each with the seq their history
   * starts after and the language they read it in: point look-ups on the primary key,
   * whatever the size of the group (in chunks).
   */
  async readersAmong(conversationId: string, userIds: readonly string[]): Promise<Reader[]> {
    const found: Reader[] = [];
    for (let start = 0; start < userIds.length; start += ONLINE_LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('conversation_members as cm')
        .innerJoin(userColumns(this.db).as('u'), 'u.id', 'cm.user_id')
        .select([
          'cm.user_id',
          'cm.min_seq',
          'cm.translate_off',
          'cm.translate_to',
          'u.mother_tongue',
        ])
        .where('cm.conversation_id', '=', conversationId)
        .where('cm.user_id', 'in', userIds.slice(start, start + ONLINE_LOOKUP_CHUNK))
        .execute();
      for (const row of rows) {
        found.push({
          userId: row.user_id,
          minSeq: Number(row.min_seq),
          lang: row.translate_off ? null : (row.translate_to ?? row.mother_tongue),
        });
      }
    }
    return found;
  }

  /** Marks these members as mentioned at `seq` (non-members are not written). */
  async setMentioned(
    conversationId: string,
    userIds: readonly string[],
    seq: number,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .updateTable('conversation_members')
      .set({ mention_seq: seq })
      .where('conversation_id', '=', conversationId)
      .where('user_id', 'in', [...userIds])
      .where('mention_seq', '<', seq)
      .execute();
  }

  /** @all: one write on the conversation, whatever the number of members. */
  async setMentionAll(conversationId: string, seq: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ mention_all_seq: seq })
      .where('id', '=', conversationId)
      .where('mention_all_seq', '<', seq)
      .execute();
  }

  /** A member's clear mark and translation language, with their mother tongue. */
  reader(conversationId: string, userId: string) {
    return this.db
      .selectFrom('conversation_members as cm')
      .innerJoin(userColumns(this.db).as('u'), 'u.id', 'cm.user_id')
      .select(['cm.min_seq', 'cm.translate_to', 'u.mother_tongue'])
      .where('cm.conversation_id', '=', conversationId)
      .where('cm.user_id', '=', userId)
      .executeTakeFirst();
  }
}
