import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Database, Db } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
}

const PG_INT8_OID = 20;

/** Opens PostgreSQL when a URL is given, otherwise the SQLite file `<dataDir>/teltlk.db`. */
export function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
}): DatabaseHandle {
  if (options.databaseUrl) {
    // Times are bigint columns; epoch milliseconds fit a JS number exactly, so read them as numbers.
    const types = new pg.TypeOverrides();
    types.setTypeParser(PG_INT8_OID, Number);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, types });
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
    };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(join(options.dataDir, 'teltlk.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Safe with WAL: a power cut may lose the last commits, never corrupt the file.
  sqlite.pragma('synchronous = NORMAL');
  return {
    db: new Kysely<Database>({
      dialect: new SqliteDialect({ database: new StatementCache(sqlite) }),
    }),
    dialect: 'sqlite',
  };
}

/** Compiled statements kept per SQL text; queries are built from few shapes, so it stays small. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 with its statements reused by SQL text. Kysely's SQLite driver prepares
 * every query anew, and compiling the SQL cost about as much as running it. A statement
 * is never used by two queries at once: the driver runs one query at a time on its single
 * connection. The least recently used statement goes when the cache is full.
 */
export class StatementCache implements SqliteDatabase {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    readonly database: SQLite.Database,
    private readonly capacity = STATEMENT_CACHE_SIZE,
  ) {}

  get size(): number {
    return this.statements.size;
  }

  prepare(sql: string): SQLite.Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Map keeps insertion order: re-inserting marks it the most recently used.
      this.statements.delete(sql);
    } else {
      statement = this.database.prepare(sql);
      if (this.statements.size >= this.capacity) {
        const oldest = this.statements.keys().next();
        if (!oldest.done) this.statements.delete(oldest.value);
      }
    }
    this.statements.set(sql, statement);
    return statement;
  }

  close(): void {
    this.statements.clear();
    this.database.close();
  }
}

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const name = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Database migration${name} failed`, { cause: error });
  }
}

/**
 * The column a unique-constraint violation is about, or null if the error is something else.
 * Lets services turn a lost race (two sign-ups with one email) into the right AppError.
 */
export function uniqueViolationColumn(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, detail } = error as {
    code?: unknown;
    message?: unknown;
    detail?: unknown;
  };
  // better-sqlite3: "UNIQUE constraint failed: users.email"
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string') {
    return /UNIQUE constraint failed: \w+\.(\w+)/.exec(message)?.[1] ?? null;
  }
  // pg: code 23505, detail "Key (email)=(a@b.c) already exists."
  if (code === '23505' && typeof detail === 'string') {
    return /^Key \((\w+)\)/.exec(detail)?.[1] ?? null;
  }
  return null;
}
