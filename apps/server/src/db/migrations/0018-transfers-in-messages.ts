import type { Kysely } from 'kysely';

/**
 * A transfer's record is its chat message (id, amount, note, recipient) and its ledger
 * transaction (`transfer:<id>`); the `transfers` table repeated both and nothing read
 * it, so it goes, and each transfer writes one row less. Landed: never edit, add a new
 * migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transfers').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('sender_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('recipient_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('currency', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('note', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfers_sender')
    .on('transfers')
    .columns(['sender_id', 'created_at'])
    .execute();
}
