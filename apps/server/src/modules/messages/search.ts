import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Db, MessageRow } from '../../db/schema.js';
import { isShortUnspaced } from './search-text.js';

/** A search of what one user can still see. */
export interface SearchScope {
  userId: string;
  /** The words, trimmed: at least one character. */
  query: string;
  /** One conversation (the caller is a member), or all of the user's. */
  conversationId?: string;
  /** The `next` of the page before. */
  cursor?: string;
  limit: number;
  now: number;
}

/** Trigram indexes find substrings of this many characters or more. */
const TRIGRAM = 3;

/**
 * The message search: texts, file names and place names (`messages.search_text`), newest
 * first, among the messages the user can still see: in conversations they are a member
 * of, after their history's start, not revoked, burnt or deleted for them.
 *
 * SQLite finds words of three characters or more in its FTS5 trigram index, walking it
 * newest first so a page stops early; PostgreSQL in its pg_trgm GIN index. Shorter words
 * have no trigram: one or two characters of Chinese (北京, 雨) and other scripts written
 * without spaces are found by their grams (migration 0011); one or two letters of
 * anything else are looked for in the texts themselves.
 */
export class MessageSearch {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** One page of hits, and the cursor of the next (null: none). */
  async find(scope: SearchScope): Promise<{ rows: MessageRow[]; next: string | null }> {
    const rows = this.dialect === 'sqlite' ? await this.sqlite(scope) : await this.postgres(scope);
    const more = rows.length > scope.limit;
    const page = rows.slice(0, scope.limit);
    const last = page.at(-1);
    return {
      rows: page.map(({ cursor: _cursor, ...row }) => row),
      next: more && last ? cursorOf(last.cursor) : null,
    };
  }

  private async sqlite(scope: SearchScope): Promise<(MessageRow & { cursor: number })[]> {
    const { query, cursor, limit } = scope;
    const before = cursor === undefined ? null : Number.parseInt(cursor, 36);
    const way = wayOf(query);
    const indexed = way === 'grams' ? sql`message_grams` : sql`message_search`;
    // A phrase of the trigram tokenizer matches the words as a substring; of the grams
    // table, the one gram.
    const phrase = `"${query.replaceAll('"', '""')}"`;
    const { rows } =
      way === 'scan'
        ? await sql<MessageRow & { cursor: number }>`
            select m.*, m.rowid as cursor from messages m
            where m.search_text is not null
              and instr(lower(m.search_text), lower(${query})) > 0
              ${before === null ? sql`` : sql`and m.rowid < ${before}`}
              and ${visible(scope)}
            order by m.rowid desc limit ${limit + 1}`.execute(this.db)
        : await sql<MessageRow & { cursor: number }>`
            select m.*, s.rowid as cursor from ${indexed} s
            join messages m on m.rowid = s.rowid
            where ${indexed} match ${phrase}
              ${before === null ? sql`` : sql`and s.rowid < ${before}`}
              and ${visible(scope)}
            order by s.rowid desc limit ${limit + 1}`.execute(this.db);
    return rows.map((row) => ({ ...row, cursor: Number(row.cursor) }));
  }

  /** Newest first by time, then seq (one conversation's messages of one millisecond), then id. */
  private async postgres(scope: SearchScope): Promise<(MessageRow & { cursor: string })[]> {
    const { query, cursor, limit } = scope;
    const pattern = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const after = cursor === undefined ? null : pgCursor(cursor);
    const found =
      wayOf(query) === 'grams'
        ? sql`m.search_grams is not null
            and string_to_array(m.search_grams, ' ') @> array[${query}]::text[]`
        : sql`m.search_text is not null and m.search_text ilike ${pattern}`;
    const { rows } = await sql<MessageRow>`
      select m.* from messages m
      where ${found}
        ${
          after === null
            ? sql``
            : sql`and (m.created_at, m.seq, m.id) < (${after.createdAt}, ${after.seq}, ${after.id})`
        }
        and ${visible(scope)}
      order by m.created_at desc, m.seq desc, m.id desc limit ${limit + 1}`.execute(this.db);
    return rows.map((row) => ({
      ...row,
      cursor: `${Number(row.created_at).toString(36)}.${Number(row.seq).toString(36)}.${row.id}`,
    }));
  }
}

/**
 * How a query is looked for: by trigrams (three characters or more), by grams (one or
 * two characters of an unspaced script), or, for one or two letters of anything else, in
 * the texts themselves (on PostgreSQL, ILIKE decides that alone).
 */
function wayOf(query: string): 'trigram' | 'grams' | 'scan' {
  if (Array.from(query).length >= TRIGRAM) return 'trigram';
  return isShortUnspaced(query) ? 'grams' : 'scan';
}

/** PostgreSQL's cursor: time and seq in base 36, and the id. */
function pgCursor(cursor: string): { createdAt: number; seq: number; id: string } {
  const [createdAt, seq, id] = cursor.split('.');
  if (!createdAt || !seq || !id) return { createdAt: 0, seq: 0, id: '' };
  return { createdAt: Number.parseInt(createdAt, 36), seq: Number.parseInt(seq, 36), id };
}

/** SQLite's rowids go as base 36, PostgreSQL's cursors as they are. */
function cursorOf(value: number | string): string {
  return typeof value === 'number' ? value.toString(36) : value;
}

/** What of `m` the user can still see, in SQL common to both dialects. */
function visible({ userId, conversationId, now }: SearchScope): RawBuilder<unknown> {
  return sql`exists (
      select 1 from conversation_members c
      where c.conversation_id = m.conversation_id and c.user_id = ${userId}
        and m.seq > c.min_seq)
    ${conversationId === undefined ? sql`` : sql`and m.conversation_id = ${conversationId}`}
    and m.revoked_at is null
    and (m.burn_at is null or m.burn_at > ${now})
    and not exists (
      select 1 from message_hides h
      where h.user_id = ${userId} and h.conversation_id = m.conversation_id and h.seq = m.seq)`;
}
