import { sql, type Kysely } from 'kysely';

/**
 * Burn times indexed only for messages that have one. Landed: never edit, add a new
 * migration.
 *
 * The full index on burn_at also held every message without a burn time. Starting the
 * burn clocks of a batch's reads asks for `burn_at is null` within ranges of seqs, and a
 * planner without statistics took that index for it and walked nearly the whole table.
 * The partial index still serves the purge (`burn_at <= now` implies not null) and can no
 * longer be picked for `is null`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_burn_idx').execute();
  await db.schema
    .createIndex('messages_burn_idx')
    .on('messages')
    .column('burn_at')
    .where(sql.ref('burn_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_burn_idx').execute();
  await db.schema.createIndex('messages_burn_idx').on('messages').column('burn_at').execute();
}
