import { sql, type Kysely } from 'kysely';

/**
 * Pi identity. Landed: never edit, add a new migration.
 *
 * An account may be bound to one Pi account (`pi_uid`, as Pi's Platform API returned it
 * for a checked access token), and a Pi account to one Teltlk account: a unique index.
 * `pi_tickets` holds a checked uid that no account had yet, while its person chooses to
 * make a new account or bind an existing one; only the ticket's hash is kept.
 * `pi_payments` keeps the payments Pi reported unfinished, for the payment module.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pi_uid', 'varchar(128)').execute();
  await db.schema.alterTable('users').addColumn('pi_username', 'varchar(128)').execute();
  await sql`create unique index users_pi_uid on users (pi_uid) where pi_uid is not null`.execute(
    db,
  );

  await db.schema
    .createTable('pi_tickets')
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('pi_uid', 'varchar(128)', (c) => c.notNull())
    .addColumn('pi_username', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pi_tickets_expiry').on('pi_tickets').column('expires_at').execute();

  await db.schema
    .createTable('pi_payments')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('pi_uid', 'varchar(128)', (c) => c.notNull())
    .addColumn('direction', 'varchar(16)', (c) => c.notNull())
    /** The PaymentDTO as the Platform API last gave it, JSON. */
    .addColumn('dto', 'text', (c) => c.notNull())
    /** `incomplete` until the payment module settles it. */
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pi_payments_user')
    .on('pi_payments')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pi_payments').execute();
  await db.schema.dropTable('pi_tickets').execute();
  await sql`drop index users_pi_uid`.execute(db);
  await db.schema.alterTable('users').dropColumn('pi_username').execute();
  await db.schema.alterTable('users').dropColumn('pi_uid').execute();
}
