import { sql, type Insertable, type Updateable } from 'kysely';
import type { ConversationMembersTable, Db, MemberRow } from '../../db/schema.js';
import { userColumns } from '../users/port.js';

/** A member row with the user's columns the member list shows and searches. */
export interface MemberListRow extends MemberRow {
  nickname: string;
  teltlk_id: string;
}

/** Where a page of the member list starts: after this member of this role. */
export interface MemberCursor {
  role: string;
  joinedAt: number;
  userId: string;
}

/**
 * The member rows and read state of group conversations, for the groups module: messaging
 * owns the conversation, member and message tables, and groups reads and changes its
 * members through this. Member search joins the users' names in the same query (a range
 * scan of the member index, filtered by name), the one place another module's table is read.
 */
export class GroupMembership {
  constructor(private readonly db: Db) {}

  in(db: Db): GroupMembership {
    return new GroupMembership(db);
  }

  /** Creates a group's (empty) conversation. */
  async createConversation(conversationId: string, now: number): Promise<void> {
    await this.db
      .insertInto('conversations')
      .values({ id: conversationId, kind: 'group', created_at: now, updated_at: now })
      .execute();
  }

  /** The conversation's newest seq: where a joining member's history starts. */
  async maxSeq(conversationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('conversations')
      .select('max_seq')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    return Number(row?.max_seq ?? 0);
  }

  findMember(conversationId: string, userId: string): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('conversation_members')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .where('role', 'is not', null)
      .executeTakeFirst();
  }

  async insertMembers(rows: readonly Insertable<ConversationMembersTable>[]): Promise<void> {
    for (let start = 0; start < rows.length; start += 100) {
      await this.db
        .insertInto('conversation_members')
        .values(rows.slice(start, start + 100))
        .execute();
    }
  }

  async updateMember(
    conversationId: string,
    userId: string,
    changes: Updateable<ConversationMembersTable>,
  ): Promise<MemberRow> {
    return this.db
      .updateTable('conversation_members')
      .set(changes)
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** True if the member row was there. */
  async deleteMember(conversationId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('conversation_members')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Removes every member (dismissal); answers who they were. */
  async deleteAllMembers(conversationId: string): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('conversation_members')
      .where('conversation_id', '=', conversationId)
      .returning('user_id')
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The owner and admins (the role index). */
  async staffIds(conversationId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', 'in', ['owner', 'admin'])
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The user's group memberships. */
  memberships(userId: string, roles?: readonly string[]): Promise<MemberRow[]> {
    return this.db
      .selectFrom('conversation_members')
      .selectAll()
      .where('user_id', '=', userId)
      .where('role', 'is not', null)
      .$if(roles !== undefined, (qb) => qb.where('role', 'in', [...(roles ?? [])]))
      .execute();
  }

  /**
   * One role's members after the cursor, by joining time: a range scan of the
   * (conversation, role, joined_at, user_id) index, never an OFFSET. `q` matches the
   * nickname, the group nickname or the Teltlk ID (case-insensitive, anywhere).
   */
  memberPage(
    conversationId: string,
    role: string,
    after: MemberCursor | null,
    q: string | undefined,
    limit: number,
  ): Promise<MemberListRow[]> {
    const pattern = q ? `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    return this.db
      .selectFrom('conversation_members as m')
      .innerJoin(userColumns(this.db).as('u'), 'u.id', 'm.user_id')
      .selectAll('m')
      .select(['u.nickname', 'u.teltlk_id'])
      .where('m.conversation_id', '=', conversationId)
      .where('m.role', '=', role)
      .$if(after !== null, (qb) =>
        qb.where(
          sql<boolean>`(m.joined_at, m.user_id) > (${after?.joinedAt ?? 0}, ${after?.userId ?? ''})`,
        ),
      )
      .$if(pattern !== null, (qb) =>
        qb.where(
          sql<boolean>`(lower(u.nickname) like ${pattern} escape '\\' or lower(coalesce(m.group_nickname, '')) like ${pattern} escape '\\' or u.teltlk_id_lower like ${pattern} escape '\\')`,
        ),
      )
      .orderBy('m.joined_at')
      .orderBy('m.user_id')
      .limit(limit)
      .execute();
  }

  // -------------------------------------------------------------------------- read state

  /**
   * Members other than the sender who have read up to `seq` and were there when it was
   * sent: one range of the (conversation, read_seq) index.
   */
  async readCount(conversationId: string, seq: number, sentAt: number, senderId: string) {
    const row = await this.db
      .selectFrom('conversation_members')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_id', '=', conversationId)
      .where('read_seq', '>=', seq)
      .where('joined_at', '<=', sentAt)
      .where('user_id', '!=', senderId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async readerIds(
    conversationId: string,
    seq: number,
    sentAt: number,
    senderId: string,
  ): Promise<string[]> {
    const rows = await this.db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('read_seq', '>=', seq)
      .where('joined_at', '<=', sentAt)
      .where('user_id', '!=', senderId)
      .orderBy('read_seq')
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** A message's sender and sending time, for its read counts. */
  messageMeta(conversationId: string, seq: number) {
    return this.db
      .selectFrom('messages')
      .select(['sender_id', 'created_at'])
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .executeTakeFirst();
  }
}
