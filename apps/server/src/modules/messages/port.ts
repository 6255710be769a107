import type { Db } from '../../db/schema.js';

/**
 * What other modules read of messaging's tables, handed out by the messages module that
 * owns them (who may see a message is visibility.ts's, handed out from there).
 */

/**
 * The members of these conversations with how each hears from it (muted, and the seq
 * their history starts after), as a table to join under an alias: a subquery a planner
 * flattens into the query that joins it.
 */
export function conversationReaders(db: Db, conversationIds: readonly string[]) {
  return db
    .selectFrom('conversation_members')
    .select(['conversation_id', 'user_id', 'muted', 'min_seq'])
    .where('conversation_id', 'in', [...conversationIds]);
}
