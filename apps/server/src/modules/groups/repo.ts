import type { Insertable, Updateable } from 'kysely';
import type {
  Db,
  GroupApplicationRow,
  GroupApplicationsTable,
  GroupRow,
  GroupsTable,
} from '../../db/schema.js';
import type { GroupFacts } from '../messages/directory.js';

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

  async insertGroup(row: Insertable<GroupsTable>): Promise<void> {
    await this.db.insertInto('groups').values(row).execute();
  }

  /** These groups, dismissed ones too, with what messaging needs of them. */
  factsByIds(ids: readonly string[]): Promise<GroupFacts[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('groups')
      .select([
        'id',
        'name',
        'avatar_path',
        'member_count',
        'owner_id',
        'all_muted',
        'allowed_kinds',
      ])
      .where('id', 'in', [...ids])
      .execute();
  }

  /** A group's member count (0 for none). */
  async memberCount(groupId: string): Promise<number> {
    const row = await this.db
      .selectFrom('groups')
      .select('member_count')
      .where('id', '=', groupId)
      .executeTakeFirst();
    return Number(row?.member_count ?? 0);
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
}
