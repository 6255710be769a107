import type { Db, MemberRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { MessageRepo } from './repo.js';

/** Work queued in a transaction to run once it has committed (pushes). */
export type AfterCommit = (() => void)[];

/**
 * Runs `work` in a transaction; after commit, publishes the events it appended and runs
 * the pushes it queued (a push before commit could announce what then rolls back).
 */
export async function transact<T>(
  db: Db,
  events: EventService,
  work: (trx: Db, pending: PendingEvent[], after: AfterCommit) => Promise<T>,
): Promise<T> {
  const pending: PendingEvent[] = [];
  const after: AfterCommit = [];
  const result = await db.transaction().execute((trx) => work(trx, pending, after));
  events.publish(pending);
  for (const run of after) run();
  return result;
}

/** The caller's member row; a conversation they are not in looks absent. */
export async function memberOf(
  repo: MessageRepo,
  db: Db,
  conversationId: string,
  userId: string,
): Promise<MemberRow> {
  const member = await repo.in(db).findMember(conversationId, userId);
  if (!member) throw new AppError('CONVERSATION_NOT_FOUND');
  return member;
}
