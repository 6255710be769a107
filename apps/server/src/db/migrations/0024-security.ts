import type { Kysely } from 'kysely';

/**
 * Step-up proofs, security activity and address changes that can be undone.
 * Landed: never edit, add a new migration.
 *
 * - `sessions.proven_at`, `proof`: when this session last proved who it is (a sign-in
 *   with a password or a code counts), and how. `held_until`: a session made by device
 *   login is on hold for sensitive actions until then, unless it steps up.
 * - `device_logins.match_number`: the two digits the asking screen shows, which the
 *   approving device must pick among three.
 * - `security_events`: what a person's security activity page lists, newest first.
 * - `address_changes`: an email or phone replaced, which the old address can undo for a
 *   while through a link (its token stored as a hash).
 * - `attempt_counters`: wrong guesses in a row, and the lock they earned, of secrets that
 *   have no row of their own to count on (a device's short code typed, per person).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('proven_at', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('proof', 'varchar(16)').execute();
  await db.schema.alterTable('sessions').addColumn('held_until', 'bigint').execute();
  await db.schema.alterTable('device_logins').addColumn('match_number', 'varchar(2)').execute();

  await db.schema
    .createTable('security_events')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(32)')
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('country', 'varchar(2)')
    .addColumn('channel', 'varchar(8)')
    .addColumn('detail', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('security_events_user')
    .on('security_events')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('address_changes')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('previous', 'varchar(255)', (c) => c.notNull())
    .addColumn('replacement', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('undone_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('address_changes_user')
    .on('address_changes')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('attempt_counters')
    .addColumn('scope', 'varchar(32)', (c) => c.notNull())
    .addColumn('key', 'varchar(64)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addPrimaryKeyConstraint('attempt_counters_pk', ['scope', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attempt_counters').execute();
  await db.schema.dropTable('address_changes').execute();
  await db.schema.dropTable('security_events').execute();
  await db.schema.alterTable('device_logins').dropColumn('match_number').execute();
  await db.schema.alterTable('sessions').dropColumn('held_until').execute();
  await db.schema.alterTable('sessions').dropColumn('proof').execute();
  await db.schema.alterTable('sessions').dropColumn('proven_at').execute();
}
