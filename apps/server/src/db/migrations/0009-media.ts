import type { Kysely } from 'kysely';

/**
 * Media: photos and files sent in chats. Landed: never edit, add a new migration.
 *
 * A media row is written when its upload has finished and been checked (type by its
 * bytes, metadata stripped, thumbnail made); its bytes live in the media storage under
 * keys of its own. `message_media` says which messages carry it, so that the members of
 * those conversations (and the uploader) may read it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
    /** image, file, voice or video. */
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('mime', 'varchar(127)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('name', 'varchar(1020)', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('placeholder', 'varchar(64)')
    /** Voice and video: their length, as the recording browser measured it. */
    .addColumn('duration_ms', 'integer')
    /** Voice: loudness bars, base64. */
    .addColumn('waveform', 'varchar(96)')
    /** Video: the photo shown before it plays (a media of its own). */
    .addColumn('poster_id', 'varchar(32)')
    .addColumn('original_key', 'varchar(80)', (c) => c.notNull())
    .addColumn('thumb_key', 'varchar(80)')
    /** 1 once a message carried it: with no message left, it goes at once. */
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The daily upload total of a person.
  await db.schema
    .createIndex('media_owner_created')
    .on('media')
    .columns(['owner_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('message_media')
    .addColumn('media_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_media_pk', ['media_id', 'conversation_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_media').execute();
  await db.schema.dropTable('media').execute();
}
