import { sql, type RawBuilder } from 'kysely';

/**
 * A `VALUES (...), (...)` list of these tuples, for a `WITH name (columns) AS (VALUES ...)`
 * that both SQLite and PostgreSQL read. The list is padded to a power of two with copies
 * of its first tuple, so a few SQL texts serve every batch size (SQLite keeps each
 * compiled); callers must not mind a tuple seen twice. Needs at least one tuple.
 */
export function valuesList(tuples: readonly (readonly unknown[])[]): RawBuilder<unknown> {
  const first = tuples[0];
  if (!first) throw new Error('an empty VALUES list');
  const padded = [...tuples];
  let size = 1;
  while (size < padded.length) size *= 2;
  while (padded.length < size) padded.push(first);
  return sql`values ${sql.join(padded.map((tuple) => sql`(${sql.join(tuple)})`))}`;
}
