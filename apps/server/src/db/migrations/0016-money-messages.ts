import type { Kysely } from 'kysely';

/**
 * Money in chats: transfers between two people, and red envelopes whose shares members
 * open. Landed: never edit, add a new migration.
 *
 * An envelope's shares are cut when it is sent (equal, or random with every share at
 * least one unit), one row each; opening one takes the lowest share nobody has, and a
 * person's second try finds the unique (envelope, user) pair taken. What nobody opened
 * within its time returns to the sender once (`refunded_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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

  await db.schema
    .createTable('envelopes')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('sender_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('currency', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('split', 'varchar(8)', (c) => c.notNull())
    .addColumn('greeting', 'varchar(200)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refunded_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('envelopes_expiry')
    .on('envelopes')
    .columns(['refunded_at', 'expires_at'])
    .execute();

  await db.schema
    .createTable('envelope_shares')
    .addColumn('envelope_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    /** Who opened it; null while nobody has. */
    .addColumn('user_id', 'varchar(32)')
    .addColumn('opened_at', 'bigint')
    /** 1 once it went back to the sender unopened. */
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('envelope_shares_pk', ['envelope_id', 'slot'])
    .addUniqueConstraint('envelope_shares_once', ['envelope_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('envelope_shares').execute();
  await db.schema.dropTable('envelopes').execute();
  await db.schema.dropTable('transfers').execute();
}
