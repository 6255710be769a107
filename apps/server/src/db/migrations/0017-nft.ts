import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * NFT assets: collections, and the items minted in them. Who holds an item is the
 * ledger's business, like any money: an item is a currency of its own (`nft:<item id>`)
 * of which one unit exists, so a gift is a ledger transaction and the holder is whoever
 * has a balance of 1. Landed: never edit, add a new migration.
 *
 * An item's currency code is longer than the 16 characters the ledger's currency columns
 * were given; PostgreSQL enforces the length (SQLite does not), so the columns widen there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('nft_collections')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    /** Items minted so far: the next item's serial is this plus one. */
    .addColumn('minted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('nft_items')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('collection_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('serial', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    /** Key of its picture in the file store (a square WebP). */
    .addColumn('image_path', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('nft_items_serial')
    .on('nft_items')
    .columns(['collection_id', 'serial'])
    .unique()
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ['ledger_accounts', 'ledger_entries']) {
      await db.schema
        .alterTable(table)
        .alterColumn('currency', (c) => c.setDataType('varchar(40)'))
        .execute();
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('nft_items').execute();
  await db.schema.dropTable('nft_collections').execute();
}
