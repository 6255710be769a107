import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Growth: daily mining, invitations that count, rankings, and jobs that must happen later.
 * Landed: never edit, add a new migration.
 *
 * - `growth_settings`: the operator's overrides of the rates and rewards (code holds the
 *   defaults), read at each check-in, so a change needs no release.
 * - `miners`: one row per person who ever checked in: the session running now (checked in
 *   and ended by conditional updates of this row, so two check-ins at once start one
 *   session), reminders on or off, and when their invitation came to count.
 * - `mining_sessions`: every 24-hour session with the rates it started with; points are
 *   computed from it, not ticked, and settled into the ledger once (`settled_at`).
 * - `rank_values`: each board's value per person and period (points of all time; invites
 *   per UTC day and month), kept for closed periods too. Ties go to the smaller user id,
 *   compared byte by byte (C collation on PostgreSQL), as Redis orders equal scores.
 * - `jobs`: work due at a time (a session's end, a period's rewards), claimed with a lease
 *   so it survives restarts and runs once across nodes; `key` makes scheduling idempotent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('growth_settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(2000)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('miners')
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('session_id', 'varchar(32)')
    .addColumn('started_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('checkins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(1))
    /** When this person's invitation began to count for their inviter; null: not yet. */
    .addColumn('qualified_at', 'bigint')
    .addColumn('nudged_at', 'bigint')
    .execute();

  await db.schema
    .createTable('mining_sessions')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('country', 'varchar(8)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    /** The rates in force at check-in (JSON), so a later change never rewrites a session. */
    .addColumn('rates', 'varchar(500)', (c) => c.notNull())
    .addColumn('ad_boost_at', 'bigint')
    .addColumn('ad_id', 'varchar(100)')
    .addColumn('settled_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mining_sessions_user_ends')
    .on('mining_sessions')
    .columns(['user_id', 'ends_at'])
    .execute();
  await db.schema
    .createIndex('mining_sessions_ad_id')
    .on('mining_sessions')
    .column('ad_id')
    .unique()
    .execute();

  await db.schema
    .createTable('rank_values')
    .addColumn('board', 'varchar(16)', (c) => c.notNull())
    .addColumn('period', 'varchar(10)', (c) => c.notNull())
    .addColumn('user_id', postgres ? sql`varchar(32) collate "C"` : 'varchar(32)', (c) =>
      c.notNull(),
    )
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rank_values_pkey', ['board', 'period', 'user_id'])
    .execute();
  await db.schema
    .createIndex('rank_values_order')
    .on('rank_values')
    .columns(['board', 'period', 'value desc', 'user_id'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('payload', 'varchar(2000)', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(500)')
    .addColumn('done_at', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['done_at', 'run_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['jobs', 'rank_values', 'mining_sessions', 'miners', 'growth_settings']) {
    await db.schema.dropTable(table).execute();
  }
}
