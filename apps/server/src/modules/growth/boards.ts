import { RANKING_TOP, type RankingBoard, type RankingResult } from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { Jobs } from '../jobs/jobs.js';
import type { UserService } from '../users/service.js';
import { periodOf, periodStart, previousPeriodOf } from './periods.js';
import type { Points } from './points.js';
import type { Rankings } from './rankings.js';
import type { GrowthSettingsStore } from './settings.js';

/** A closed period's rewards wait this long past its end, for the last qualifications. */
export const REWARD_DELAY_MS = 5 * MINUTE;

export const REWARD_BOARDS = ['dayInvites', 'monthInvites'] as const;
export type RewardBoard = (typeof REWARD_BOARDS)[number];

/**
 * The ranking boards as people see them (spec §4), and the rewards of the invite boards'
 * closed periods, credited as ranking points by a job once per period.
 */
export class Boards {
  /** Reward jobs this node has scheduled (the jobs table keeps them across restarts). */
  private readonly rewardsScheduled = new Set<string>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      users: UserService;
      rankings: Rankings;
      jobs: Jobs;
      points: Points;
      settings: GrowthSettingsStore;
    },
  ) {}

  async ranking(
    auth: AuthInfo,
    board: RankingBoard,
    which: 'current' | 'previous',
  ): Promise<RankingResult> {
    const { rankings, clock, users } = this.deps;
    const now = clock.now();
    const period = which === 'current' ? periodOf(board, now) : previousPeriodOf(board, now);
    const { top, me } = await rankings.standing(board, period, auth.userId, RANKING_TOP);
    const cards = await users.cardsOf(top.map((row) => row.userId));
    const entries = [];
    for (const [index, row] of top.entries()) {
      const user = cards.get(row.userId);
      if (user) entries.push({ rank: index + 1, user, value: row.value });
    }
    return { board, period, top: entries, me };
  }

  /** Fills the Redis sets of these boards from SQL (start-up of a node, benchmarks). */
  async rebuild(boards: readonly [RankingBoard, string][]): Promise<void> {
    for (const [board, period] of boards) await this.deps.rankings.rebuild(board, period);
  }

  /** Schedules the rewards of the periods closed before now (idempotent; run on each tick). */
  async scheduleRewards(): Promise<void> {
    const { db, clock, jobs } = this.deps;
    const now = clock.now();
    const due = REWARD_BOARDS.map((board) => ({
      board,
      period: previousPeriodOf(board, now),
      runAt: periodStart(board, now) + REWARD_DELAY_MS,
    }));
    const key = ({ board, period }: { board: string; period: string }) =>
      `ranking-reward:${board}:${period}`;
    // Each closed period is scheduled once per node, not written again on every tick.
    if (due.every((job) => this.rewardsScheduled.has(key(job)))) return;
    await db.transaction().execute(async (trx) => {
      for (const { board, period, runAt } of due) {
        await jobs.schedule(trx, {
          kind: 'ranking-reward',
          key: key({ board, period }),
          runAt,
          payload: { board, period },
        });
      }
    });
    for (const job of due) this.rewardsScheduled.add(key(job));
  }

  /**
   * Credits the top places of a closed period, as ranking-reward points. Each place posts
   * under its own key, so a run cut short and run again credits every place once.
   */
  async reward(board: RewardBoard, period: string): Promise<number> {
    const { db, clock, rankings, points } = this.deps;
    if (periodOf(board, clock.now() - REWARD_DELAY_MS) === period) {
      throw new Error(`the ${board} period ${period} is not closed yet`);
    }
    const settings = await this.deps.settings.current();
    const amounts =
      board === 'dayInvites' ? settings.dayInvitesRewards : settings.monthInvitesRewards;
    if (amounts.length === 0) return 0;
    // From SQL, the record: the Redis set of a closed period may have expired.
    const top = await rankings.topInSql(board, period, amounts.length);
    let credited = 0;
    for (const [index, row] of top.entries()) {
      const amount = amounts[index] ?? 0;
      if (amount <= 0 || row.value <= 0) continue;
      const place = `${board}:${period}:${index + 1}`;
      const update = await db
        .transaction()
        .execute((trx) =>
          points.credit(
            trx,
            row.userId,
            { ranking: amount },
            { key: `ranking:${place}`, kind: 'ranking', reference: place },
          ),
        );
      if (!update) continue;
      credited += 1;
      rankings.publish([update]);
    }
    return credited;
  }
}
