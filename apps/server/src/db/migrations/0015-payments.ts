import { sql, type Kysely } from 'kysely';

/**
 * Pi payments: recharges (a person pays the app) and withdrawals (the app pays a person),
 * each an order of ours tied to Pi's payment once Pi gives it an identifier. Landed: never
 * edit, add a new migration.
 *
 * A withdrawal keeps the Stellar transaction it signed (hash and envelope) before it is
 * submitted, so a restart finds out from the chain whether it went, and either completes
 * it or releases the hold: never both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    /** recharge or withdraw. */
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('currency', 'varchar(16)', (c) => c.notNull())
    /** Units that reach the person (recharge) or leave for their Pi wallet (withdraw). */
    .addColumn('amount', 'bigint', (c) => c.notNull())
    /** Units the app keeps (withdraw fee). */
    .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('memo', 'varchar(200)', (c) => c.notNull())
    .addColumn('pi_uid', 'varchar(128)', (c) => c.notNull())
    /** Pi's identifier, once Pi gave one; one order per Pi payment. */
    .addColumn('pi_payment_id', 'varchar(128)', (c) => c.unique())
    /**
     * recharge: created → approved → completed, or cancelled.
     * withdraw: held → created → signed → completed, or failed (hold released).
     */
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('txid', 'varchar(128)')
    /** withdraw: the signed envelope (base64 XDR) and the last second it may land. */
    .addColumn('envelope', 'text')
    .addColumn('valid_until', 'bigint')
    /** Why it failed or was cancelled, for the history and the operator. */
    .addColumn('reason', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_user')
    .on('payments')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('payments_open').on('payments').columns(['state', 'kind']).execute();
  // Pi takes one open app-to-user payment at a time: so do we, on every node together.
  await sql`create unique index payments_one_open_withdrawal on payments (kind)
    where kind = 'withdraw' and state in ('held', 'created', 'signed')`.execute(db);
  // Unfinished payments are settled by the payments module itself now.
  await db.schema.dropTable('pi_payments').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payments').execute();
  await db.schema
    .createTable('pi_payments')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('pi_uid', 'varchar(128)', (c) => c.notNull())
    .addColumn('direction', 'varchar(16)', (c) => c.notNull())
    .addColumn('dto', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
