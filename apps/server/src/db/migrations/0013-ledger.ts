import type { Kysely } from 'kysely';

/**
 * The ledger: money moves only as transactions of entries that sum to zero per currency.
 * Landed: never edit, add a new migration.
 *
 * An account's balance is kept beside its entries, changed in the same statement batch
 * as they are written, and checked against them (`operator ledger:verify`). Amounts are
 * integers in the currency's smallest unit. A transaction's idempotency key is unique: a
 * replayed request finds the transaction it made the first time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'varchar(96)', (c) => c.primaryKey())
    /** user, or app (the app's own: outside world, fees). */
    .addColumn('owner_kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('owner_id', 'varchar(32)')
    .addColumn('currency', 'varchar(16)', (c) => c.notNull())
    /** available, held; outside (money entering and leaving), fees. */
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    /** 1: may go below zero (the outside world's mirror); 0: never. */
    .addColumn('may_go_negative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_accounts_owner')
    .on('ledger_accounts')
    .columns(['owner_id', 'currency'])
    .execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'varchar(200)', (c) => c.notNull().unique())
    /** What moved the money: recharge, withdraw, transfer, envelope… */
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    /** The business record it belongs to (a payment, a message), if any. */
    .addColumn('reference', 'varchar(200)')
    /** A digest of kind and entries: a key reused for other money is refused. */
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('transaction_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(96)', (c) => c.notNull())
    .addColumn('currency', 'varchar(16)', (c) => c.notNull())
    /** Signed: what the account gained (or lost, below zero). */
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_account')
    .on('ledger_entries')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('ledger_entries_transaction')
    .on('ledger_entries')
    .column('transaction_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('ledger_transactions').execute();
  await db.schema.dropTable('ledger_accounts').execute();
}
