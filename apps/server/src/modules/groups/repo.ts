import { sql, type Insertable, type Updateable } from 'kysely';
import type {
  ConversationMembersTable,
  Db,
  GroupApplicationRow,
  GroupApplicationsTable,
  GroupRow,
  GroupsTable,
  MemberRow,
} from '../../db/schema.js';

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

export class GroupRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): GroupRepo {
    return new GroupRepo(db);
  }

  // -------------------------------------------------------------------------- groups

  /** A group that has not been dismissed. */
  findGroup(id: string): Promise<GroupRow | undefined> {
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', id)
      .where('dismissed_at', 'is', null)
      .executeTakeFirst();
  }

  findGroupByNo(groupNo: string): Promise<GroupRow | undefined> {
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where('group_no', '=', groupNo)
      .where('dismissed_at', 'is', null)
      .executeTakeFirst();
  }

  async groupNoTaken(groupNo: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('groups')
      .select('id')
      .where('group_no', '=', groupNo)
      .executeTakeFirst();
    return row !== undefined;
  }

  groupsByIds(ids: readonly string[]): Promise<GroupRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where('id', 'in', [...ids])
      .where('dismissed_at', 'is', null)
      .execute();
  }

  /** Creates the group and its (empty) conversation. */
  async insertGroup(row: Insertable<GroupsTable>, conversationId: string): Promise<void> {
    await this.db.insertInto('groups').values(row).execute();
    await this.db
      .insertInto('conversations')
      .values({
        id: conversationId,
        kind: 'group',
        created_at: row.created_at,
        updated_at: row.created_at,
      })
      .execute();
  }

  async updateGroup(id: string, changes: Updateable<GroupsTable>): Promise<GroupRow> {
    return this.db
      .updateTable('groups')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Moves member_count by `delta` in the caller's transaction; answers the new count. */
  async addMemberCount(id: string, delta: number, now: number): Promise<number> {
    const row = await this.db
      .updateTable('groups')
      .set((eb) => ({ member_count: eb('member_count', '+', delta), updated_at: now }))
      .where('id', '=', id)
      .returning('member_count')
      .executeTakeFirstOrThrow();
    return Number(row.member_count);
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

  // -------------------------------------------------------------------------- members

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
      .innerJoin('users as u', 'u.id', 'm.user_id')
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

  // -------------------------------------------------------------------------- applications

  findApplication(id: string): Promise<GroupApplicationRow | undefined> {
    return this.db
      .selectFrom('group_applications')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findApplicationOf(groupId: string, userId: string): Promise<GroupApplicationRow | undefined> {
    return this.db
      .selectFrom('group_applications')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async insertApplication(row: Insertable<GroupApplicationsTable>): Promise<void> {
    await this.db.insertInto('group_applications').values(row).execute();
  }

  updateApplication(
    id: string,
    changes: Updateable<GroupApplicationsTable>,
  ): Promise<GroupApplicationRow> {
    return this.db
      .updateTable('group_applications')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Applications to these groups, newest first. */
  applicationsTo(groupIds: readonly string[], limit: number): Promise<GroupApplicationRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('group_applications')
      .selectAll()
      .where('group_id', 'in', [...groupIds])
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  applicationsBy(userId: string, limit: number): Promise<GroupApplicationRow[]> {
    return this.db
      .selectFrom('group_applications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  // -------------------------------------------------------------------------- people

  /** Which of these users are friends of `userId`. */
  async friendsAmong(userId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('friendships')
      .select('friend_id')
      .where('user_id', '=', userId)
      .where('friend_id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => row.friend_id));
  }
}
