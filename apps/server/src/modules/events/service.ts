import {
  userEventDataSchema,
  type EventPageResult,
  type UserEvent,
  type UserEventData,
} from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { Hub } from '../../realtime/hub.js';
import { EventRepo } from './repo.js';

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
  private readonly repo: EventRepo;
  private readonly publishedListeners: ((events: readonly PendingEvent[]) => void)[] = [];

  constructor(private readonly deps: { db: Db; clock: Clock; hub: Hub }) {
    this.repo = new EventRepo(deps.db);
  }

  /** Appends within the caller's transaction; push the result with `publish` after commit. */
  async append(trx: Db, userId: string, data: UserEventData): Promise<PendingEvent> {
    const [pending] = await this.appendToMany(trx, [userId], data);
    if (!pending) throw new Error(`no user ${userId} to append an event to`);
    return pending;
  }

  /**
   * The same event for many users (everyone leaving a dismissed group), within the
   * caller's transaction: their seqs move and their rows go in a statement per chunk of
   * users, not per user. Users that no longer exist are left out.
   */
  async appendToMany(
    trx: Db,
    userIds: readonly string[],
    data: UserEventData,
  ): Promise<PendingEvent[]> {
    const repo = this.repo.in(trx);
    const now = this.deps.clock.now();
    const json = JSON.stringify(data);
    const pending: PendingEvent[] = [];
    for (let start = 0; start < userIds.length; start += EVENT_BATCH) {
      const seqs = await repo.nextSeqs(userIds.slice(start, start + EVENT_BATCH));
      await repo.insert(
        seqs.map(({ userId, seq }) => ({ user_id: userId, seq, data: json, created_at: now })),
      );
      for (const { userId, seq } of seqs) {
        pending.push({ userId, event: { seq, at: now, data } });
      }
    }
    return pending;
  }

  /** Pushes committed events to their users' sockets, then tells the listeners. */
  publish(events: readonly PendingEvent[]): void {
    for (const { userId, event } of events) {
      this.deps.hub.toUsers([userId], { t: 'event', event });
    }
    if (events.length > 0) for (const listener of this.publishedListeners) listener(events);
  }

  /** Called with committed events once published (Web Push follows some of them). */
  onPublished(listener: (events: readonly PendingEvent[]) => void): void {
    this.publishedListeners.push(listener);
  }

  async page(userId: string, after: number, limit: number): Promise<EventPageResult> {
    const [rows, lastSeq] = await Promise.all([
      this.repo.after(userId, after, limit + 1),
      this.repo.lastSeq(userId),
    ]);
    const events = rows.slice(0, limit).map((row) => ({
      seq: Number(row.seq),
      at: Number(row.created_at),
      data: userEventDataSchema.parse(JSON.parse(row.data)),
    }));
    return { events, hasMore: rows.length > limit, lastSeq };
  }
}
