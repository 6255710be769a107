import type { Kysely } from 'kysely';

/**
 * Switches the operator flips on a running service, read by every node. Landed: never
 * edit, add a new migration.
 *
 * - `server_flags`: one row per flag that is set (`maintenance`: the service is under
 *   maintenance, with the operator's note). No row: the flag is off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_flags')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(500)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_flags').execute();
}
