import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Edited texts and message search. Landed: never edit, add a new migration.
 *
 * - `edited_at`: when a text's sender last edited it.
 * - `search_text`: what a search finds a message by (a text's words, a file's name, a
 *   place's name); null for everything else, and for a revoked message.
 * - The index over it: on SQLite an FTS5 table with the trigram tokenizer (substrings of
 *   three characters or more, so Chinese, which has no spaces, is found like any other
 *   language), kept by triggers and reading its text from `messages` (external content,
 *   nothing stored twice). Its rows are keyed by the messages' rowids: after a `VACUUM`,
 *   which may renumber them, `INSERT INTO message_search(message_search) VALUES('rebuild')`
 *   makes it again from the messages. On PostgreSQL a GIN index of `pg_trgm` trigrams,
 *   which answers `ILIKE '%…%'`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('edited_at', 'bigint').execute();
  await db.schema.alterTable('messages').addColumn('search_text', 'text').execute();
  // Messages sent before get theirs (searchTextOf, in SQL).
  const field = (path: string) =>
    isSqlite(db)
      ? sql`json_extract(content, ${`$.${path}`})`
      : sql`(content::jsonb #>> ${`{${path.replace('.', ',')}}`})`;
  await sql`UPDATE messages SET search_text = CASE ${field('kind')}
      WHEN 'text' THEN ${field('text')}
      WHEN 'file' THEN ${field('file.name')}
      WHEN 'location' THEN ${field('name')}
    END
    WHERE revoked_at IS NULL`.execute(db);
  if (isSqlite(db)) {
    await sql`CREATE VIRTUAL TABLE message_search USING fts5(
      search_text, content='messages', content_rowid='rowid', tokenize='trigram')`.execute(db);
    await sql`CREATE TRIGGER message_search_insert AFTER INSERT ON messages
      WHEN new.search_text IS NOT NULL BEGIN
        INSERT INTO message_search(rowid, search_text) VALUES (new.rowid, new.search_text);
      END`.execute(db);
    await sql`CREATE TRIGGER message_search_delete AFTER DELETE ON messages
      WHEN old.search_text IS NOT NULL BEGIN
        INSERT INTO message_search(message_search, rowid, search_text)
          VALUES ('delete', old.rowid, old.search_text);
      END`.execute(db);
    await sql`CREATE TRIGGER message_search_update AFTER UPDATE OF search_text ON messages BEGIN
        INSERT INTO message_search(message_search, rowid, search_text)
          SELECT 'delete', old.rowid, old.search_text WHERE old.search_text IS NOT NULL;
        INSERT INTO message_search(rowid, search_text)
          SELECT new.rowid, new.search_text WHERE new.search_text IS NOT NULL;
      END`.execute(db);
    await sql`INSERT INTO message_search(message_search) VALUES ('rebuild')`.execute(db);
    return;
  }
  // pg_trgm is a trusted extension: a database owner may add it. It lives in one schema
  // per database, so its operator class is named with that schema.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  const { rows } = await sql<{ schema: string }>`SELECT n.nspname AS schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]!.schema;
  await sql`CREATE INDEX messages_search_idx ON messages
    USING gin (search_text ${sql.id(schema, 'gin_trgm_ops')})
    WHERE search_text IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    for (const trigger of ['insert', 'delete', 'update']) {
      await sql`DROP TRIGGER ${sql.id(`message_search_${trigger}`)}`.execute(db);
    }
    await sql`DROP TABLE message_search`.execute(db);
  } else {
    await sql`DROP INDEX messages_search_idx`.execute(db);
  }
  await db.schema.alterTable('messages').dropColumn('search_text').execute();
  await db.schema.alterTable('messages').dropColumn('edited_at').execute();
}

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
