import type { Db, UserEventsTable } from '../../db/schema.js';
import type { Insertable } from 'kysely';
import { lastEventSeq, nextEventSeqs } from '../users/port.js';

/** A user's next event seq, as moved by `nextSeqs`. */
export interface EventSeq {
  userId: string;
  seq: number;
}

/**
 * The event streams' rows: each user's counter (users.event_seq, which only this module
 * asks the users module to move) and the events themselves.
 */
export class EventRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): EventRepo {
    return new EventRepo(db);
  }

  /** Moves these users' counters by one; answers the new seqs of those that exist. */
  nextSeqs(userIds: readonly string[]): Promise<EventSeq[]> {
    return nextEventSeqs(this.db, userIds);
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
  lastSeq(userId: string): Promise<number> {
    return lastEventSeq(this.db, userId);
  }
}
