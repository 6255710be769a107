import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db, UserRow } from '../../db/schema.js';
import type { InviteeReads } from '../growth/directory.js';

/** What growth reads of users: who invited whom (the team, its boosters and nudges). */
export class InviteeDirectory implements InviteeReads {
  invitees(db: Db, inviterId: string): SelectQueryBuilder<Database, 'users', UserRow> {
    return db.selectFrom('users').selectAll().where('invited_by', '=', inviterId);
  }
}
