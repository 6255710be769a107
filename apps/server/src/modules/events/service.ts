import {
  userEventDataSchema,
  type EventPageResult,
  type UserEvent,
  type UserEventData,
} from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { Hub } from '../../realtime/hub.js';

/** An event written for one user, to be pushed once its transaction has committed. */
export interface PendingEvent {
  userId: string;
  event: UserEvent;
}

/** Users whose events are written by one statement (bound parameters stay well in limits). */
const EVENT_BATCH = 500;

/**
 * Each user's event stream: changes that have no conversation seq of their own (friend
 * requests, friends, blocks, a message deleted for me, a conversation's member state),
 * numbered gap-free per user so every device catches up with `after=<last seq>`.
 */
export class EventService {
  constructor(private readonly deps: { db: Db; clock: Clock; hub: Hub }) {}

  /** Appends within the caller's transaction; push the result with `publish` after commit. */
  async append(trx: Db, userId: string, data: UserEventData): Promise<PendingEvent> {
    const now = this.deps.clock.now();
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ event_seq: eb('event_seq', '+', 1) }))
      .where('id', '=', userId)
      .returning('event_seq')
      .executeTakeFirstOrThrow();
    const seq = Number(row.event_seq);
    await trx
      .insertInto('user_events')
      .values({ user_id: userId, seq, data: JSON.stringify(data), created_at: now })
      .execute();
    return { userId, event: { seq, at: now, data } };
  }

  /**
   * The same event for many users (everyone leaving a dismissed group), within the
   * caller's transaction: their seqs move and their rows go in a statement per chunk of
   * users, not per user.
   */
  async appendToMany(
    trx: Db,
    userIds: readonly string[],
    data: UserEventData,
  ): Promise<PendingEvent[]> {
    const now = this.deps.clock.now();
    const json = JSON.stringify(data);
    const pending: PendingEvent[] = [];
    for (let start = 0; start < userIds.length; start += EVENT_BATCH) {
      const rows = await trx
        .updateTable('users')
        .set((eb) => ({ event_seq: eb('event_seq', '+', 1) }))
        .where('id', 'in', userIds.slice(start, start + EVENT_BATCH))
        .returning(['id', 'event_seq'])
        .execute();
      if (rows.length === 0) continue;
      await trx
        .insertInto('user_events')
        .values(
          rows.map((row) => ({
            user_id: row.id,
            seq: Number(row.event_seq),
            data: json,
            created_at: now,
          })),
        )
        .execute();
      for (const row of rows) {
        pending.push({ userId: row.id, event: { seq: Number(row.event_seq), at: now, data } });
      }
    }
    return pending;
  }

  /** Pushes committed events to their users' sockets. */
  publish(events: readonly PendingEvent[]): void {
    for (const { userId, event } of events) {
      this.deps.hub.toUsers([userId], { t: 'event', event });
    }
  }

  async page(userId: string, after: number, limit: number): Promise<EventPageResult> {
    const { db } = this.deps;
    const [rows, user] = await Promise.all([
      db
        .selectFrom('user_events')
        .select(['seq', 'data', 'created_at'])
        .where('user_id', '=', userId)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(limit + 1)
        .execute(),
      db.selectFrom('users').select('event_seq').where('id', '=', userId).executeTakeFirst(),
    ]);
    const events = rows.slice(0, limit).map((row) => ({
      seq: Number(row.seq),
      at: Number(row.created_at),
      data: userEventDataSchema.parse(JSON.parse(row.data)),
    }));
    return { events, hasMore: rows.length > limit, lastSeq: Number(user?.event_seq ?? 0) };
  }
}
