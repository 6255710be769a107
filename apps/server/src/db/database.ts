import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, sql, SqliteDialect, type SqliteDatabase } from 'kysely';
import { OwnSchemaPostgresDialect } from './own-schema.js';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Database, Db } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Closes the database and whatever runs beside it (SQLite's checkpoint thread). */
  close: () => Promise<void>;
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
    pool.on('connect', (client) => prepareRepeatedStatements(client));
    const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, 'teltlk.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Safe with WAL: a power cut may lose the last commits, never corrupt the file. With it,
  // a commit appends to the WAL without an fsync; only checkpoints sync.
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints (copying the WAL back into the database, with their fsyncs) run on a
  // thread of their own, so commits seldom stall the event loop on them. The automatic
  // checkpoint stays, with a higher threshold, as the bound on the WAL's size: it finishes
  // what that thread left and lets the WAL start over. The file shrinks back afterwards.
  sqlite.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const checkpointer = new Checkpointer(file);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new StatementCache(sqlite, STATEMENT_CACHE_SIZE) }),
  });
  return {
    db,
    dialect: 'sqlite',
    // The thread's own connection must be gone too before the files may be removed.
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

const BUSY_TIMEOUT_MS = 5000;
/** How often the checkpoint thread copies the WAL back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;
/**
 * About 16 MB of 4 KB pages. Under a steady stream of commits the checkpoint thread
 * copies nearly all of the WAL, but the WAL starts again from the beginning only once a
 * checkpoint has caught up with the last commit; the automatic checkpoint then copies
 * what is left (little) and lets the WAL start over.
 */
const WAL_AUTOCHECKPOINT_PAGES = 4000;
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The checkpoint thread's code. A passive checkpoint copies what no reader still needs
 * and never waits for, nor blocks, the writer; once the WAL is all copied, the next
 * commit starts it again from the beginning, so it stays small.
 */
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failing: the next round tries again, and the automatic checkpoint bounds the WAL.
  }
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Checkpoint threads running in this process. */
const checkpointThreads = new Set<Worker>();

/** How many checkpoint threads are running (a database not closed leaves one behind). */
export function checkpointThreadCount(): number {
  return checkpointThreads.size;
}

/**
 * Runs checkpoints of one SQLite file on a worker thread with its own connection. It
 * starts after the first interval, so short-lived databases (tests) never pay for a thread.
 */
class Checkpointer {
  private worker: Worker | null = null;
  private readonly start: NodeJS.Timeout;

  constructor(file: string) {
    this.start = setTimeout(() => {
      this.worker = new Worker(CHECKPOINTER_SOURCE, {
        eval: true,
        workerData: {
          file,
          driver: createRequire(import.meta.url).resolve('better-sqlite3'),
          busyTimeoutMs: BUSY_TIMEOUT_MS,
          intervalMs: CHECKPOINT_INTERVAL_MS,
        },
      });
      // A failed thread leaves checkpoints to SQLite's automatic one.
      this.worker.on('error', () => undefined);
      const worker = this.worker;
      checkpointThreads.add(worker);
      worker.once('exit', () => checkpointThreads.delete(worker));
      this.worker.unref();
    }, CHECKPOINT_INTERVAL_MS);
    this.start.unref();
  }

  /** Resolves once the thread has closed its connection and ended. */
  stop(): Promise<void> {
    clearTimeout(this.start);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return Promise.resolve();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    return exited;
  }
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
export async function migrateToLatest(db: Db, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its bookkeeping tables in every schema it can see unless it is told
    // which one: a database holding several schemas (one per test app, or per tenant)
    // would otherwise find another schema's lock table and never create its own.
    ...(dialect === 'postgres' ? { migrationTableSchema: await currentSchema(db) } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const name = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Database migration${name} failed`, { cause: error });
  }
}

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check search_path');
  return schema;
}

/**
 * The column a unique-constraint violation is about, or null if the error is something else.
 * Lets services turn a lost race (two sign-ups with one email) into the right AppError.
 */
/** Whether a write broke a unique constraint (of any columns), on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}

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

/** Distinct statement texts given a name, each prepared once per connection that runs it. */
const PREPARED_STATEMENTS_MAX = 1000;
const statementNames = new Map<string, string>();

/**
 * PostgreSQL parses and plans an unnamed statement every time it runs; a named one once
 * per connection. The app's statements are a bounded set of texts (values are always
 * parameters), so each text gets a name and the server keeps its parse, and its plan once
 * it has settled on a generic one. A text beyond the first PREPARED_STATEMENTS_MAX runs
 * unnamed, which bounds what each connection keeps. Statements without parameters
 * (BEGIN, COMMIT) stay unnamed: nothing to save.
 */
function prepareRepeatedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
      return query(...args);
    }
    let name = statementNames.get(text);
    if (name === undefined && statementNames.size < PREPARED_STATEMENTS_MAX) {
      name = `s${statementNames.size}`;
      statementNames.set(text, name);
    }
    if (name === undefined) return query(...args);
    return query({ name, text, values }, ...args.slice(2));
  };
}
