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

  /** Counts one more wrong password; returns the consecutive failures so far. */
  async addFailedLogin(id: string): Promise<number> {
    const row = await this.db
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', id)
      .returning('failed_logins')
      .executeTakeFirst();
    return row?.failed_logins ?? 0;
  }

  async lockLogin(id: string, until: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ login_locked_until: until })
      .where('id', '=', id)
      .execute();
  }

  async clearFailedLogins(id: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ failed_logins: 0, login_locked_until: null })
      .where('id', '=', id)
      .execute();
  }
}
