import type { Kysely } from 'kysely';

/**
 * Translation. Landed: never edit, add a new migration.
 *
 * A text message keeps its source language, detected when it was sent. A translation is
 * one row per (message, target language), made once and read by every reader of that
 * language; the row is claimed (`pending`, with a lease) before the provider is called,
 * so concurrent readers on any node cause one provider call. Members choose per
 * conversation whether to see translations and into which language. Provider characters
 * are counted per user and day for the daily quota.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('lang', 'varchar(16)').execute();
  await db.schema
    .alterTable('conversation_members')
    .addColumn('translate_off', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('conversation_members')
    .addColumn('translate_to', 'varchar(16)')
    .execute();

  await db.schema
    .createTable('translations')
    .addColumn('message_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('lang', 'varchar(16)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('source_lang', 'varchar(16)', (c) => c.notNull())
    /** pending, done or failed. */
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('error', 'varchar(40)')
    .addColumn('provider', 'varchar(32)')
    /** A pending row whose lease ran out (its node died) may be claimed again. */
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('translations_pk', ['message_id', 'lang'])
    .execute();
  // Translations go with their message when it is revoked or burnt.
  await db.schema
    .createIndex('translations_conversation_seq')
    .on('translations')
    .columns(['conversation_id', 'seq'])
    .execute();

  await db.schema
    .createTable('translation_usage')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    /** The UTC day, YYYY-MM-DD. */
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('characters', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_usage_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('translation_usage').execute();
  await db.schema.dropTable('translations').execute();
  await db.schema.alterTable('conversation_members').dropColumn('translate_to').execute();
  await db.schema.alterTable('conversation_members').dropColumn('translate_off').execute();
  await db.schema.alterTable('messages').dropColumn('lang').execute();
}
