import type { Db, UserRow } from '../../db/schema.js';
import { UserRepo } from './repo.js';

/**
 * What other modules read and move of the users table, handed out by the users module
 * that owns it: rows by id, the columns others join on (a subquery a planner flattens into
 * the query that joins it, so the join costs what a join of the table did), the row lock
 * that orders one person's uploads, and the event counter the events module keeps.
 */

/** A user's row, in the given transaction when there is one. */
export function userRow(db: Db, id: string): Promise<UserRow | undefined> {
  return new UserRepo(db).findById(id);
}

/** These users' rows; unknown ids are left out. */
export function userRows(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  return new UserRepo(db).findByIds([...ids]);
}

/** The official accounts, oldest first. */
export function officialUserRows(db: Db): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('official', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The columns of users that other modules join on, as a table to join under an alias
 * (`.innerJoin(userColumns(db).as('u'), 'u.id', ...)`): names for member search, the
 * languages and switches that shape what a person is sent, and whether the account is
 * an official one.
 */
export function userColumns(db: Db) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'nickname',
      'teltlk_id',
      'teltlk_id_lower',
      'mother_tongue',
      'ui_language',
      'notifications',
      'notification_previews',
      'official',
    ]);
}

/**
 * Locks a person's row until the transaction ends, so that what is counted per person
 * (their uploads of the day) is counted one step after the other (PostgreSQL; SQLite runs
 * one transaction at a time). Not FOR UPDATE: that would also hold back rows that refer
 * to this person.
 */
export async function lockUserRow(trx: Db, id: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', id).forNoKeyUpdate().execute();
}

/**
 * Moves these users' event counters (users.event_seq, which only the events module asks to
 * move) by one; answers the new seqs of those that exist.
 */
export async function nextEventSeqs(
  db: Db,
  userIds: readonly string[],
): Promise<{ userId: string; seq: number }[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .updateTable('users')
    .set((eb) => ({ event_seq: eb('event_seq', '+', 1) }))
    .where('id', 'in', [...userIds])
    .returning(['id', 'event_seq'])
    .execute();
  return rows.map((row) => ({ userId: row.id, seq: Number(row.event_seq) }));
}

/** A user's newest event seq (0 for none, or no such user). */
export async function lastEventSeq(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('event_seq')
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(row?.event_seq ?? 0);
}
