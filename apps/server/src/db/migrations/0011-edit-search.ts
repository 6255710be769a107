import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Edited texts, message search and stickers. Landed: never edit, add a new migration.
 *
 * - `face_favourites`: photos a user keeps as stickers (a reference that keeps the photo
 *   stored). Groups that allowed every kind allow stickers and chat history records too.
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
 * - `search_grams`: for the words trigrams cannot find, one or two characters of a script
 *   written without spaces (北京, 雨): the characters of such runs and their pairs, as
 *   words separated by spaces (gramsOf). SQLite indexes them in a second FTS5 table
 *   (unicode61: each gram one token), PostgreSQL as an array in a GIN index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('face_favourites')
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('media_id', 'varchar(32)', (c) =>
      c.notNull().references('media.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('face_favourites_pkey', ['user_id', 'media_id'])
    .execute();
  await db.schema
    .createIndex('face_favourites_media_idx')
    .on('face_favourites')
    .column('media_id')
    .execute();
  await sql`update groups set allowed_kinds = ${JSON.stringify([...KINDS_BEFORE, 'face', 'merged'])}
    where allowed_kinds = ${JSON.stringify(KINDS_BEFORE)}`.execute(db);
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
  await db.schema.alterTable('messages').addColumn('search_grams', 'text').execute();
  for (let after = ''; ;) {
    const { rows } = await sql<{ id: string; search_text: string }>`SELECT id, search_text
      FROM messages WHERE search_text IS NOT NULL AND id > ${after}
      ORDER BY id LIMIT 1000`.execute(db);
    for (const { id, search_text } of rows) {
      const grams = gramsOf(search_text);
      if (grams !== null) {
        await sql`UPDATE messages SET search_grams = ${grams} WHERE id = ${id}`.execute(db);
      }
    }
    if (rows.length < 1000) break;
    after = rows.at(-1)!.id;
  }
  if (isSqlite(db)) {
    await ftsOn(db, 'message_search', 'search_text', 'trigram');
    await ftsOn(db, 'message_grams', 'search_grams', 'unicode61');
    return;
  }
  // pg_trgm is a trusted extension: a database owner may add it. It lives in one schema
  // per database, so its operator class is named with that schema: public, where there is
  // one, so that no app's own schema holds it (dropping that schema would drop every
  // index on it). Two apps migrating at once may both try: the second finds it made.
  await sql`DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
      IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'public') THEN
        CREATE EXTENSION pg_trgm WITH SCHEMA public;
      ELSE
        CREATE EXTENSION pg_trgm;
      END IF;
    END IF;
  EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
  END $$`.execute(db);
  const { rows } = await sql<{ schema: string }>`SELECT n.nspname AS schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]!.schema;
  await sql`CREATE INDEX messages_search_idx ON messages
    USING gin (search_text ${sql.id(schema, 'gin_trgm_ops')})
    WHERE search_text IS NOT NULL`.execute(db);
  await sql`CREATE INDEX messages_grams_idx ON messages
    USING gin ((string_to_array(search_grams, ' ')))
    WHERE search_grams IS NOT NULL`.execute(db);
}

/**
 * An FTS5 table `table` over `messages.column` with `tokenize`, kept by triggers and
 * reading its text from the messages (external content), filled from what is there.
 */
async function ftsOn(db: Kysely<unknown>, table: string, column: string, tokenize: string) {
  const [name, col] = [sql.id(table), sql.id(column)];
  const trigger = (what: string) => sql.id(`${table}_${what}`);
  await sql`CREATE VIRTUAL TABLE ${name} USING fts5(${col}, content='messages',
    content_rowid='rowid', tokenize=${sql.lit(tokenize)})`.execute(db);
  await sql`CREATE TRIGGER ${trigger('insert')} AFTER INSERT ON messages
    WHEN new.${col} IS NOT NULL BEGIN
      INSERT INTO ${name}(rowid, ${col}) VALUES (new.rowid, new.${col});
    END`.execute(db);
  await sql`CREATE TRIGGER ${trigger('delete')} AFTER DELETE ON messages
    WHEN old.${col} IS NOT NULL BEGIN
      INSERT INTO ${name}(${name}, rowid, ${col}) VALUES ('delete', old.rowid, old.${col});
    END`.execute(db);
  await sql`CREATE TRIGGER ${trigger('update')} AFTER UPDATE OF ${col} ON messages BEGIN
      INSERT INTO ${name}(${name}, rowid, ${col})
        SELECT 'delete', old.rowid, old.${col} WHERE old.${col} IS NOT NULL;
      INSERT INTO ${name}(rowid, ${col}) SELECT new.rowid, new.${col} WHERE new.${col} IS NOT NULL;
    END`.execute(db);
  await sql`INSERT INTO ${name}(${name}) VALUES ('rebuild')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update groups set allowed_kinds = ${JSON.stringify(KINDS_BEFORE)}
    where allowed_kinds = ${JSON.stringify([...KINDS_BEFORE, 'face', 'merged'])}`.execute(db);
  await db.schema.dropTable('face_favourites').execute();
  if (isSqlite(db)) {
    for (const table of ['message_search', 'message_grams']) {
      for (const trigger of ['insert', 'delete', 'update']) {
        await sql`DROP TRIGGER ${sql.id(`${table}_${trigger}`)}`.execute(db);
      }
      await sql`DROP TABLE ${sql.id(table)}`.execute(db);
    }
  } else {
    await sql`DROP INDEX messages_search_idx`.execute(db);
    await sql`DROP INDEX messages_grams_idx`.execute(db);
  }
  await db.schema.alterTable('messages').dropColumn('search_grams').execute();
  await db.schema.alterTable('messages').dropColumn('search_text').execute();
  await db.schema.alterTable('messages').dropColumn('edited_at').execute();
}

/** Every kind a group could allow before stickers (0010). */
const KINDS_BEFORE = ['text', 'image', 'voice', 'video', 'file', 'location', 'card'];

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/*
 * Frozen here as the migration ran: the messages module's own grams may change, and a
 * migration that landed must not change with it.
 */

/** Characters of scripts written without spaces between words. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Every character of a run of unspaced script and every pair of neighbours, each once. */
function gramsOf(text: string | null): string | null {
  if (text === null) return null;
  const grams = new Set<string>();
  let previous: string | null = null;
  for (const char of text) {
    if (!UNSPACED.test(char)) {
      previous = null;
      continue;
    }
    grams.add(char);
    if (previous !== null) grams.add(previous + char);
    previous = char;
  }
  return grams.size === 0 ? null : [...grams].join(' ');
}
