import type { Kysely } from 'kysely';

/**
 * Web Push: notifications to devices that are not online. Landed: never edit, add a new
 * migration.
 *
 * - `push_subscriptions`: one per signed-in device (session), as its browser's push
 *   service gave it: the endpoint to post to and the keys that encrypt for that browser
 *   alone. It goes with its session (sign-out, expiry) and when the push service says
 *   the endpoint is gone.
 * - `users.notification_previews`: whether a push may carry the sender and the text;
 *   off, it says only that a message came (the spec's default title).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('session_id', 'varchar(32)', (c) =>
      c.notNull().unique().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('endpoint', 'varchar(1000)', (c) => c.notNull().unique())
    .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
    .addColumn('auth', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user')
    .on('push_subscriptions')
    .column('user_id')
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('notification_previews', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('notification_previews').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
