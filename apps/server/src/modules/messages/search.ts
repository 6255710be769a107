import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Db, MessageRow } from '../../db/schema.js';
import { isShortUnspaced } from './search-text.js';
import { visibleSql } from './visibility.js';

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
/** PostgreSQL reads this many of the newest messages before it asks its index. */
const RECENT_WINDOW = 20_000;

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
  private readonly recentWindow: number;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    options: { recentWindow?: number } = {},
  ) {
    this.recentWindow = options.recentWindow ?? RECENT_WINDOW;
  }

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
    if (scope.conversationId !== undefined && way !== 'scan') {
      // One conversation: its messages newest first by its own (conversation, seq) key,
      // each looked up in the set of matches (read once from the index). Walking the index
      // instead would pass every match in every other conversation before this one's.
      const { rows } = await sql<MessageRow & { cursor: number }>`
        select m.*, m.rowid as cursor from messages m
        where m.conversation_id = ${scope.conversationId}
          and m.rowid in (select rowid from ${indexed} where ${indexed} match ${phrase})
          ${before === null ? sql`` : sql`and m.rowid < ${before}`}
          and ${visible(scope)}
        order by m.seq desc limit ${limit + 1}`.execute(this.db);
      return rows.map((row) => ({ ...row, cursor: Number(row.cursor) }));
    }
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

  /**
   * Newest first by time, then seq (one conversation's messages of one millisecond), then
   * id. A GIN index answers in no order: a common word has tens of thousands of rows to
   * sort for one page. So the newest RECENT_WINDOW messages are read first, in the order
   * of their time-sortable ids, where a common word fills a page at once; only what is
   * still missing is asked of the index, below that window, where only rarer words
   * remain to be found.
   */
  private async postgres(scope: SearchScope): Promise<(MessageRow & { cursor: string })[]> {
    const { query, cursor, limit } = scope;
    const after = cursor === undefined ? null : pgCursor(cursor);
    const pattern = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const found =
      wayOf(query) === 'grams'
        ? sql`m.search_grams is not null
            and string_to_array(m.search_grams, ' ') @> array[${query}]::text[]`
        : sql`m.search_text is not null and m.search_text ilike ${pattern}`;
    const below =
      after === null
        ? sql``
        : sql`and (m.created_at, m.seq, m.id) < (${after.createdAt}, ${after.seq}, ${after.id})`;
    if (scope.conversationId !== undefined) {
      // One conversation: its messages newest first, by its own (conversation, seq) key.
      const { rows } = await sql<MessageRow>`select m.* from messages m
        where m.conversation_id = ${scope.conversationId} and ${found}
          ${after === null ? sql`` : sql`and m.seq < ${after.seq}`}
          and ${visible(scope)}
        order by m.seq desc limit ${limit + 1}`.execute(this.db);
      return rows.map((row) => ({ ...row, cursor: pgCursorOf(row) }));
    }
    // Each step's candidates are settled first (materialized), so the plan is this one
    // whatever the planner guesses of a user's conversations: the window by the primary
    // key, or the matches by the index; then who may see them, row by row.
    const page = async (candidates: RawBuilder<unknown>, wanted: number) =>
      (
        await sql<MessageRow>`with candidates as materialized (${candidates})
          select m.* from candidates h join messages m on m.id = h.id
          where ${found} ${below} and ${visible(scope)}
          order by m.created_at desc, m.seq desc, m.id desc limit ${wanted}`.execute(this.db)
      ).rows;
    const upToCursor = after === null ? sql`` : sql`where id <= ${after.id}`;
    let rows = await page(
      sql`select m.id from (select id, search_text, search_grams from messages ${upToCursor}
          order by id desc limit ${this.recentWindow}) m
        where ${found}`,
      limit + 1,
    );
    if (rows.length <= limit) {
      // A rarer word: the rest from the index, below the window (if the window was not all).
      const { rows: edges } = await sql<{ id: string }>`select id from messages ${upToCursor}
        order by id desc offset ${this.recentWindow} limit 1`.execute(this.db);
      const edge = edges[0]?.id;
      if (edge !== undefined) {
        const older = await page(
          sql`select m.id from messages m where ${found} and m.id <= ${edge}`,
          limit + 1 - rows.length,
        );
        rows = [...rows, ...older];
      }
    }
    return rows.map((row) => ({ ...row, cursor: pgCursorOf(row) }));
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

function pgCursorOf(row: MessageRow): string {
  return `${Number(row.created_at).toString(36)}.${Number(row.seq).toString(36)}.${row.id}`;
}

/** SQLite's rowids go as base 36, PostgreSQL's cursors as they are. */
function cursorOf(value: number | string): string {
  return typeof value === 'number' ? value.toString(36) : value;
}

/** What of `m` the user can still see (the one rule), in the conversation searched if one is. */
function visible({ userId, conversationId, now }: SearchScope): RawBuilder<unknown> {
  return sql`${visibleSql('m', { userId }, now, 'content')}
    ${conversationId === undefined ? sql`` : sql`and m.conversation_id = ${conversationId}`}`;
}
