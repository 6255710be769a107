import type { Kysely } from 'kysely';

/**
 * Burn after reading. Landed: never edit, add a new migration.
 *
 * A message keeps the burn duration that was on when it was sent, so turning burning
 * off (or changing the duration) later does not change what was promised for it; its
 * burn_at is set from this once the recipient has read it.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('burn_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('burn_seconds').execute();
}
