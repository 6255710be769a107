import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { MINUTE } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';

/**
 * Work due at a time (a mining session's end, a closed period's rewards, a withdrawal to look
 * at again), as rows: a job
 * is scheduled in the transaction of what it follows from, claimed with a lease, and
 * marked done when its handler returns. A crash leaves the lease to run out and another
 * run takes it; handlers are idempotent (their ledger keys), so a job cut short and run
 * again does its work once.
 */

export interface JobSpec {
  kind: string;
  /** Unique: scheduling the same key again does nothing. */
  key: string;
  runAt: number;
  payload: Record<string, unknown>;
}

/** A job's work: `again` when it is not finished yet and must run again later. */
export type JobHandler = (payload: Record<string, unknown>) => Promise<void | 'again'>;

/** How long to wait before the next run, after `attempts` runs that did not finish. */
export type RetryDelay = (attempts: number) => number;

const LEASE_MS = 5 * MINUTE;
/** Retries back off from a minute to an hour, unless the kind says otherwise. */
const retryDelay: RetryDelay = (attempts) => Math.min(60, 2 ** Math.max(0, attempts - 1)) * MINUTE;
const CLAIM_BATCH = 200;

export class Jobs {
  private readonly handlers = new Map<string, { run: JobHandler; retryDelay: RetryDelay }>();

  constructor(private readonly deps: { db: Db; clock: Clock; logger: Logger }) {}

  handle(kind: string, handler: JobHandler, options: { retryDelay?: RetryDelay } = {}): void {
    this.handlers.set(kind, { run: handler, retryDelay: options.retryDelay ?? retryDelay });
  }

  /** Schedules within the caller's transaction; a key already scheduled stays as it is. */
  async schedule(trx: Db, spec: JobSpec): Promise<void> {
    await trx
      .insertInto('jobs')
      .values({
        id: newId(),
        kind: spec.kind,
        key: spec.key,
        payload: JSON.stringify(spec.payload),
        run_at: spec.runAt,
        lease_until: null,
        error: null,
        done_at: null,
      })
      .onConflict((c) => c.column('key').doNothing())
      .execute();
  }

  /** Runs the jobs due now, one by one; how many were done. */
  async runDue(): Promise<number> {
    const { db, clock, logger } = this.deps;
    const now = clock.now();
    const due = await db
      .selectFrom('jobs')
      .select(['id', 'kind', 'payload', 'attempts'])
      .where('done_at', 'is', null)
      .where('run_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('run_at')
      .limit(CLAIM_BATCH)
      .execute();
    let done = 0;
    for (const job of due) {
      const handler = this.handlers.get(job.kind);
      if (!handler) continue;
      const leaseUntil = clock.now() + LEASE_MS;
      const claimed = await db
        .updateTable('jobs')
        .set({ lease_until: leaseUntil, attempts: Number(job.attempts) + 1 })
        .where('id', '=', job.id)
        .where('done_at', 'is', null)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', clock.now())]))
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n) continue;
      const attempts = Number(job.attempts) + 1;
      let error: string | null = null;
      try {
        const outcome = await handler.run(JSON.parse(job.payload) as Record<string, unknown>);
        if (outcome !== 'again') {
          await db
            .updateTable('jobs')
            .set({ done_at: clock.now(), lease_until: null, error: null })
            .where('id', '=', job.id)
            .where('lease_until', '=', leaseUntil)
            .execute();
          done += 1;
          continue;
        }
      } catch (failure) {
        logger.warn({ err: failure, job: job.id, kind: job.kind, attempts }, 'job failed');
        error = String(failure instanceof Error ? failure.message : failure).slice(0, 500);
      }
      await db
        .updateTable('jobs')
        .set({ lease_until: null, run_at: clock.now() + handler.retryDelay(attempts), error })
        .where('id', '=', job.id)
        .where('lease_until', '=', leaseUntil)
        .execute();
    }
    return done;
  }

  /**
   * Makes the unfinished jobs of a kind due now, those no run holds: a node starting takes
   * up at once what a crash left under way, instead of after the retry's wait.
   */
  async hurry(kind: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db
      .updateTable('jobs')
      .set({ run_at: now })
      .where('kind', '=', kind)
      .where('done_at', 'is', null)
      .where('run_at', '>', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .execute();
  }

  /** Finished jobs older than `age` go (their effects are in the ledger). */
  async purge(age: number): Promise<void> {
    await this.deps.db
      .deleteFrom('jobs')
      .where('done_at', 'is not', null)
      .where('done_at', '<', this.deps.clock.now() - age)
      .execute();
  }
}
