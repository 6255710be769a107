import type { Kysely } from 'kysely';

/**
 * Uploads under way count against the day's upload total. Landed: never edit, add a new
 * migration.
 *
 * - `upload_reservations`: one row per upload begun and not yet stored or dropped, with
 *   the size it declared. The daily check counts them beside the media stored today, so
 *   uploads begun at once cannot together pass a total that one of them fills.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_reservations')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_reservations_owner')
    .on('upload_reservations')
    .columns(['owner_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_reservations').execute();
}
