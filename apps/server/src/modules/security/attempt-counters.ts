import type { Db } from '../../db/schema.js';
import {
  clearFailures,
  reserveThenCheck,
  reserveUnlessLocked,
  type LockColumns,
  type LockStep,
} from '../../lib/attempts.js';
import type { Clock } from '../../lib/clock.js';

/** What a counter guards; each has its own count per key (a person). */
export type AttemptScope = 'deviceCode';

/**
 * Counts of wrong guesses for secrets with no row of their own to keep them on (owner of
 * `attempt_counters`): checked through reserveThenCheck like every other secret.
 */
export class AttemptCounters {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /**
   * Counts an attempt at `scope` for `key`, then runs `compare`; a wrong answer (false) is
   * `wrong`, a right one clears the count. Refused with `locked` while locked.
   */
  async check(
    scope: AttemptScope,
    key: string,
    steps: readonly [LockStep, ...LockStep[]],
    attempt: {
      compare: () => Promise<boolean>;
      wrong: () => Error;
      locked: (seconds: number) => Error;
    },
  ): Promise<void> {
    const { db, clock } = this.deps;
    const columns: LockColumns = {
      table: 'attempt_counters',
      key: { column: 'key', value: `${scope}:${key}` },
      count: 'failures',
      lockedUntil: 'locked_until',
    };
    await reserveThenCheck({
      reserve: async () => {
        await db
          .insertInto('attempt_counters')
          .values({ scope, key: `${scope}:${key}`, failures: 0, locked_until: null })
          .onConflict((conflict) => conflict.columns(['scope', 'key']).doNothing())
          .execute();
        await reserveUnlessLocked(db, columns, steps, () => clock.now(), attempt.locked);
      },
      compare: attempt.compare,
      right: () => clearFailures(db, columns),
      wrong: attempt.wrong,
    });
  }
}
