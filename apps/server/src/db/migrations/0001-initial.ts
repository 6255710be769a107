import type { Kysely } from 'kysely';

/** Accounts, sessions and verification codes. Landed: never edit, add a new migration. */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('teltlk_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('teltlk_id_lower', 'varchar(32)', (c) => c.notNull())
    .addColumn('teltlk_id_changed_at', 'bigint')
    .addColumn('phone', 'varchar(20)')
    .addColumn('email', 'varchar(254)')
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('nickname', 'varchar(64)', (c) => c.notNull())
    .addColumn('avatar_path', 'varchar(255)')
    .addColumn('country', 'varchar(2)', (c) => c.notNull())
    .addColumn('mother_tongue', 'varchar(16)', (c) => c.notNull())
    .addColumn('invite_code', 'varchar(16)', (c) => c.notNull())
    .addColumn('invited_by', 'varchar(32)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('ui_language', 'varchar(8)', (c) => c.notNull())
    .addColumn('mother_tongue_first', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('vibration', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('alert_sound', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Named unique indexes (not inline constraints) so a violation names its column on both dialects.
  await db.schema
    .createIndex('users_teltlk_id_lower_key')
    .on('users')
    .column('teltlk_id_lower')
    .unique()
    .execute();
  await db.schema.createIndex('users_phone_key').on('users').column('phone').unique().execute();
  await db.schema.createIndex('users_email_key').on('users').column('email').unique().execute();
  await db.schema
    .createIndex('users_invite_code_key')
    .on('users')
    .column('invite_code')
    .unique()
    .execute();
  await db.schema.createIndex('users_invited_by_idx').on('users').column('invited_by').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('sessions_token_hash_key')
    .on('sessions')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('destination', 'varchar(254)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'bigint')
    .addColumn('ticket_hash', 'varchar(64)')
    .addColumn('ticket_expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('verification_codes_destination_idx')
    .on('verification_codes')
    .columns(['destination', 'purpose', 'created_at'])
    .execute();
  await db.schema
    .createIndex('verification_codes_ip_idx')
    .on('verification_codes')
    .columns(['ip', 'created_at'])
    .execute();
  await db.schema
    .createIndex('verification_codes_ticket_hash_key')
    .on('verification_codes')
    .column('ticket_hash')
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('verification_codes').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
