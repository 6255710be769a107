import type { Kysely } from 'kysely';

/**
 * Partnership requests sent through the landing site's form (`/home/cooperate`). Landed:
 * never edit, add a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cooperation_requests')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('organisation', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'varchar(4000)', (c) => c.notNull())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cooperation_requests_created')
    .on('cooperation_requests')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cooperation_requests').execute();
}
