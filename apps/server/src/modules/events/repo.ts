import type { Db, UserEventsTable } from '../../db/schema.js';
import type { Insertable } from 'kysely';

/** A user's next event seq, as moved by `nextSeqs`. */
export interface EventSeq {
  userId: string;
  seq: number;
}

/**
 * The event streams' rows: each user's counter (users.event_seq, which only this module
 * moves) and the events themselves.
 */
export class EventRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): EventRepo {
    return new EventRepo(db);
  }

  /** Moves these users' counters by one; answers the new seqs of those that exist. */
  async nextSeqs(userIds: readonly string[]): Promise<EventSeq[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .updateTable('users')
      .set((eb) => ({ event_seq: eb('event_seq', '+', 1) }))
      .where('id', 'in', [...userIds])
      .returning(['id', 'event_seq'])
      .execute();
    return rows.map((row) => ({ userId: row.id, seq: Number(row.event_seq) }));
  }

  async insert(rows: readonly Insertable<UserEventsTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('user_events')
      .values([...rows])
      .execute();
  }

  /** Up to `limit` events after `after`, oldest first. */
  after(userId: string, after: number, limit: number) {
    return this.db
      .selectFrom('user_events')
      .select(['seq', 'data', 'created_at'])
      .where('user_id', '=', userId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** The user's newest event seq (0 for none, or no such user). */
  async lastSeq(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select('event_seq')
      .where('id', '=', userId)
      .executeTakeFirst();
    return Number(row?.event_seq ?? 0);
  }
}
