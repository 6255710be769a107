import type { Kysely } from 'kysely';

/**
 * Wallets: one per person who created theirs, with the payment password's hash (argon2id)
 * and the lock that wrong entries set. Money itself is in the ledger. Landed: never edit,
 * add a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('wallets')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('password_hash', 'varchar(255)')
    /** Wrong payment passwords in a row; a right one starts again from zero. */
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('wallets').execute();
}
