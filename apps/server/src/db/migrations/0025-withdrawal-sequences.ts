import { Transaction } from '@stellar/stellar-sdk/minimal';
import { sql, type Kysely } from 'kysely';

/**
 * Withdrawals of different people side by side, each transaction on a sequence number of
 * the app wallet's own. Landed: never edit, add a new migration.
 *
 * - One open withdrawal per person instead of one for the whole app: Pi keeps one open
 *   app-to-user payment per person, and the app wallet's sequence numbers are handed out
 *   below, not by running one withdrawal at a time.
 * - `tx_sequence`: the app wallet's sequence number the signed transaction uses, as 19
 *   digits with leading zeros (an int64, past what a JavaScript number holds exactly; so
 *   padded, text sorts as the number does). Unique among signed withdrawals not yet
 *   settled or released: two transactions that may still land never share one.
 * - `network`: the network passphrase it was signed for (a sequence bump is signed for
 *   the same network).
 *
 * Withdrawals signed before this migration get their sequence number from their envelope.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('tx_sequence', 'varchar(19)').execute();
  await db.schema.alterTable('payments').addColumn('network', 'varchar(32)').execute();
  const { rows } = await sql<{ id: string; envelope: string }>`
    select id, envelope from payments
    where kind = 'withdraw' and envelope is not null`.execute(db);
  for (const { id, envelope } of rows) {
    // The passphrase only enters the hash: any one reads the sequence number.
    const { sequence } = new Transaction(envelope, 'Pi Network');
    await sql`update payments set tx_sequence = ${sequence.padStart(19, '0')}
      where id = ${id}`.execute(db);
  }
  await db.schema.dropIndex('payments_one_open_withdrawal').execute();
  await sql`create unique index payments_one_open_withdrawal on payments (user_id)
    where kind = 'withdraw' and state in ('held', 'created', 'signed')`.execute(db);
  await sql`create unique index payments_signed_sequence on payments (tx_sequence)
    where kind = 'withdraw' and state = 'signed'`.execute(db);
  await db.schema
    .createIndex('payments_tx_sequence')
    .on('payments')
    .column('tx_sequence')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_tx_sequence').execute();
  await db.schema.dropIndex('payments_signed_sequence').execute();
  await db.schema.dropIndex('payments_one_open_withdrawal').execute();
  await sql`create unique index payments_one_open_withdrawal on payments (kind)
    where kind = 'withdraw' and state in ('held', 'created', 'signed')`.execute(db);
  await db.schema.alterTable('payments').dropColumn('network').execute();
  await db.schema.alterTable('payments').dropColumn('tx_sequence').execute();
}
