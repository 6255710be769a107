import { sql } from 'kysely';
import type { Db } from '../db/schema.js';
import { SECOND } from './clock.js';

/**
 * Every secret a person types (a password, the payment password, a code, a device's short
 * code) is checked the same way: the attempt is counted first, in one conditional update
 * that refuses once the secret is locked or spent, and only a counted attempt is compared.
 * N guesses sent at once count N, and no more are ever compared than the count allows. A
 * right answer then clears what counting did, where the secret keeps a count of failures.
 */
export interface Attempt {
  /** Counts one attempt, or throws (locked, spent, unknown) with nothing compared. */
  reserve(): Promise<void>;
  /** The comparison itself, often slow on purpose (argon2). */
  compare(): Promise<boolean>;
  /** After a right answer: clears the count of failures. */
  right?(): Promise<void>;
  /** The error a wrong answer gets. */
  wrong(): Error;
  /** Gives back what was set aside for the comparison when `reserve` refuses (a hashing slot). */
  cancel?(): void;
}

export async function reserveThenCheck(attempt: Attempt): Promise<void> {
  try {
    await attempt.reserve();
  } catch (error) {
    attempt.cancel?.();
    throw error;
  }
  if (!(await attempt.compare())) throw attempt.wrong();
  await attempt.right?.();
}

/** From how many failures in a row a secret locks, and for how long at each count. */
export interface LockStep {
  failures: number;
  seconds: number;
}

/** A count of failures and the lock it earns, kept in two columns of a row. */
export interface LockColumns {
  table: string;
  key: { column: string; value: string };
  count: string;
  lockedUntil: string;
}

/**
 * Counts a failure ahead of the comparison and sets the lock that failure would earn, in
 * one statement, unless the row is locked now: the failures-so-far when counted,
 * undefined when locked (or no such row). `steps` in order of failures; the last holds
 * beyond it.
 */
export async function reserveFailure(
  db: Db,
  columns: LockColumns,
  steps: readonly [LockStep, ...LockStep[]],
  now: number,
): Promise<number | undefined> {
  const count = sql.ref(columns.count);
  const lockedUntil = sql.ref(columns.lockedUntil);
  // Both sides of SET read the row as it was: the count before this attempt.
  const [cap, ...below] = [...steps].reverse() as [LockStep, ...LockStep[]];
  const whens = below.map(
    (step) => sql`WHEN ${count} = ${step.failures - 1} THEN ${now + step.seconds * SECOND}`,
  );
  const { rows } = await sql<{ failures: number | string }>`
    UPDATE ${sql.table(columns.table)}
    SET ${count} = ${count} + 1,
      ${lockedUntil} = CASE WHEN ${count} >= ${cap.failures - 1} THEN ${now + cap.seconds * SECOND}
        ${sql.join(whens, sql` `)} ELSE ${lockedUntil} END
    WHERE ${sql.ref(columns.key.column)} = ${columns.key.value}
      AND (${lockedUntil} IS NULL OR ${lockedUntil} <= ${now})
    RETURNING ${count} AS failures`.execute(db);
  const row = rows[0];
  return row === undefined ? undefined : Number(row.failures);
}

/** Forgets the failures after a right answer. */
export async function clearFailures(db: Db, columns: LockColumns): Promise<void> {
  await sql`
    UPDATE ${sql.table(columns.table)}
    SET ${sql.ref(columns.count)} = 0, ${sql.ref(columns.lockedUntil)} = NULL
    WHERE ${sql.ref(columns.key.column)} = ${columns.key.value}`.execute(db);
}

/** When the row's lock ends, if it is locked at `now`. */
export async function lockedUntil(
  db: Db,
  columns: LockColumns,
  now: number,
): Promise<number | null> {
  const { rows } = await sql<{ until: number | string | null }>`
    SELECT ${sql.ref(columns.lockedUntil)} AS until FROM ${sql.table(columns.table)}
    WHERE ${sql.ref(columns.key.column)} = ${columns.key.value}`.execute(db);
  const until = rows[0]?.until;
  return until === undefined || until === null || Number(until) <= now ? null : Number(until);
}

/**
 * `reserveFailure` for a secret that locks: counts the attempt, or throws what `locked`
 * makes of the seconds left while it is locked. Tried twice: a lock seen by the update may
 * have been cleared by a right answer since.
 */
export async function reserveUnlessLocked(
  db: Db,
  columns: LockColumns,
  steps: readonly [LockStep, ...LockStep[]],
  now: () => number,
  locked: (seconds: number) => Error,
): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const at = now();
    if ((await reserveFailure(db, columns, steps, at)) !== undefined) return;
    const until = await lockedUntil(db, columns, at);
    if (until !== null) throw locked(Math.ceil((until - at) / SECOND));
  }
  throw locked(1);
}
