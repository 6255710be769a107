import type { Db } from '../../db/schema.js';

/**
 * What other modules read of the sessions table, handed out by the auth module that owns
 * it: whose each session is and whether it has ended, as a table to join under an alias
 * (a subquery a planner flattens into the query that joins it).
 */
export function sessionStates(db: Db) {
  return db.selectFrom('sessions').select(['id', 'user_id', 'revoked_at', 'expires_at']);
}
