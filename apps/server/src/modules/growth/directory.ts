import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db, UserRow } from '../../db/schema.js';

/** What growth reads of the tables other modules own, asked of those modules. */

/** A person's invitees as the users module hands them out. */
export interface InviteeReads {
  /**
   * The accounts `inviterId` invited, as a subquery of their user rows to select from or
   * join (`db.selectFrom(invitees.invitees(db, id).as('u'))`), in `db`'s transaction.
   */
  invitees(db: Db, inviterId: string): SelectQueryBuilder<Database, 'users', UserRow>;
}
