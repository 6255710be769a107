import type { Channel } from '@teltlk/protocol';
import type { Db, NewUser, UserRow, UserUpdate } from '../../db/schema.js';

export class UserRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): UserRepo {
    return new UserRepo(db);
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Email addresses are stored lower-case and phones in E.164, so equality is enough. */
  findByDestination(channel: Channel, destination: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(channel === 'email' ? 'email' : 'phone', '=', destination)
      .executeTakeFirst();
  }

  findByTeltlkId(teltlkId: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('teltlk_id_lower', '=', teltlkId.toLowerCase())
      .executeTakeFirst();
  }

  findByPiUid(uid: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('pi_uid', '=', uid).executeTakeFirst();
  }

  /** Invitation codes are stored upper-case. */
  async findIdByInviteCode(inviteCode: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('invite_code', '=', inviteCode.toUpperCase())
      .executeTakeFirst();
    return row?.id;
  }

  async insert(user: NewUser): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
  }

  update(id: string, changes: UserUpdate): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Changes the Teltlk ID unless it was changed by the user after `changedBefore`; false if it was. */
  async changeTeltlkId(
    id: string,
    teltlkId: string,
    now: number,
    changedBefore: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({
        teltlk_id: teltlkId,
        teltlk_id_lower: teltlkId.toLowerCase(),
        teltlk_id_changed_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('teltlk_id_changed_at', 'is', null),
          eb('teltlk_id_changed_at', '<=', changedBefore),
        ]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Each of these users' mother tongue. */
  async findByIds(ids: readonly string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  }

  async motherTongues(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'mother_tongue'])
      .where('id', 'in', [...userIds])
      .execute();
    return new Map(rows.map((row) => [row.id, row.mother_tongue]));
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
}
