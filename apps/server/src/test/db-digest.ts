import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Db } from '../db/schema.js';

/**
 * Every row of every table, for tests that prove a refused request wrote nothing. Rows
 * are compared as sorted canonical JSON: PostgreSQL returns rows in no fixed order.
 */
export type DbSnapshot = Map<string, string[]>;

/** Columns a test leaves out of the comparison, by table. */
export type IgnoredColumns = Readonly<Record<string, readonly string[]>>;

const tableNames = new WeakMap<Db, Promise<string[]>>();

/** The app's tables; migrations run before a test app starts, so they are read once. */
function tablesOf(db: Db): Promise<string[]> {
  let names = tableNames.get(db);
  if (!names) {
    names = db.introspection.getTables().then((tables) =>
      tables
        .filter((table) => !table.isView)
        .map((table) => table.name)
        .sort(),
    );
    tableNames.set(db, names);
  }
  return names;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

async function snapshotDb(db: Db, ignored: IgnoredColumns = {}): Promise<DbSnapshot> {
  const snapshot: DbSnapshot = new Map();
  for (const table of await tablesOf(db)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      db,
    );
    const skip = ignored[table] ?? [];
    snapshot.set(
      table,
      rows
        .map((row) => {
          const kept = { ...row };
          for (const column of skip) delete kept[column];
          return canonical(kept);
        })
        .sort(),
    );
  }
  return snapshot;
}

/** What changed between two snapshots, one line per added or removed row; empty if nothing. */
export function diffSnapshots(before: DbSnapshot, after: DbSnapshot, maxLines = 10): string[] {
  const lines: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(table) ?? [];
    const now = after.get(table) ?? [];
    if (old.length === now.length && old.every((row, index) => row === now[index])) continue;
    const oldSet = new Set(old);
    const nowSet = new Set(now);
    const removed = old.filter((row) => !nowSet.has(row)).map((row) => `${table} - ${row}`);
    const added = now.filter((row) => !oldSet.has(row)).map((row) => `${table} + ${row}`);
    // Same rows, different counts: a duplicate row appeared or went.
    if (removed.length + added.length === 0) {
      lines.push(`${table}: ${old.length} rows became ${now.length}`);
    }
    lines.push(...removed, ...added);
  }
  return lines
    .slice(0, maxLines)
    .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line));
}

/**
 * A count that moves whenever anything may have been written: SQLite's changes on the
 * app's one connection; on PostgreSQL the next transaction id, which only writing
 * transactions take (anyone's, so other work on the server only costs a comparison).
 */
async function writeMark(db: Db, dialect: Dialect): Promise<string> {
  const query =
    dialect === 'sqlite'
      ? sql<{ mark: string }>`select cast(total_changes() as text) as mark`
      : sql<{ mark: string }>`select pg_snapshot_xmax(pg_current_snapshot())::text as mark`;
  const { rows } = await query.execute(db);
  return rows[0]!.mark;
}

/**
 * Watches the database across requests: `changes()` lists the rows that changed since
 * the last call. Rows are compared only when the write mark moved, so requests that
 * wrote nothing cost one query.
 */
export class DbWatch {
  private snapshot: DbSnapshot | null = null;
  private mark: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly ignored: IgnoredColumns = {},
  ) {}

  /** Takes the state to compare with; call before the first request and after setup writes. */
  async reset(): Promise<void> {
    this.mark = await writeMark(this.db, this.dialect);
    this.snapshot = await snapshotDb(this.db, this.ignored);
  }

  async changes(): Promise<string[]> {
    if (!this.snapshot) throw new Error('reset() first');
    const mark = await writeMark(this.db, this.dialect);
    if (mark === this.mark) return [];
    const before = this.snapshot;
    await this.reset();
    return diffSnapshots(before, this.snapshot);
  }
}
