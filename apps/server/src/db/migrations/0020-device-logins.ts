import type { Kysely } from 'kysely';

/**
 * Device login: a signed-out browser shows a ticket (as a QR code and a short code), a
 * signed-in device approves or refuses it, and the browser that asked is signed in.
 * Landed: never edit, add a new migration.
 *
 * - `device_logins`: one row per ticket. The browser that asked holds its secret (stored
 *   as a hash), so only that browser can take the session an approval grants. `code` is
 *   the short form typed on a device without a camera. `state` goes pending → approved →
 *   used, or pending → refused, each by a conditional update; a ticket past `expires_at`
 *   can no longer change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_logins')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(32)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('decided_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('device_logins_expires')
    .on('device_logins')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_logins').execute();
}
