import { sql, type Kysely } from 'kysely';

/**
 * Rewarded ads bound to the account that handed them in first. Landed: never edit, add a
 * new migration.
 *
 * Pi's ad status names no viewer, so the server cannot ask whose ad an `adId` was. The
 * first account to hand in an ad Pi says was granted holds it from then on, whether or not
 * it could boost a session then (not mining, already boosted): an id passed on, or read
 * off someone else's request, boosts nobody else. Ads that boosted a session before this
 * table are bound to that session's person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ad_claims')
    .addColumn('ad_id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into ad_claims (ad_id, user_id, claimed_at)
    select ad_id, user_id, coalesce(ad_boost_at, started_at) from mining_sessions
    where ad_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ad_claims').execute();
}
