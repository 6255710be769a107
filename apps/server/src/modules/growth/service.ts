import type {
  CoinHistoryResult,
  CoinResult,
  MiningStatus,
  PageQuery,
  RankingBoard,
  RankingResult,
  TeamMembersResult,
  TeamResult,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { EventService } from '../events/service.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Ledger } from '../ledger/ledger.js';
import type { PiPlatform } from '../pi/platform.js';
import type { UserService } from '../users/service.js';
import { Boards, type RewardBoard } from './boards.js';
import type { InviteeReads } from './directory.js';
import { Mining } from './mining.js';
import { Points } from './points.js';
import type { Rankings } from './rankings.js';
import { GrowthRepo } from './repo.js';
import type { GrowthSettings, GrowthSettingsStore } from './settings.js';
import { Team } from './team.js';

/**
 * Daily mining, points, invitations and team, rankings (spec §1–§4), each a part of its
 * own (mining.ts, points.ts, team.ts, boards.ts) over one repo; this is what the routes,
 * the operator commands and the jobs call. Points live in the ledger, one currency per
 * kind (`pts:<kind>`), so the same double entry, idempotency keys and `ledger:verify`
 * hold for them as for money.
 */
export class GrowthService {
  private readonly mine: Mining;
  private readonly points: Points;
  private readonly teams: Team;
  private readonly boards: Boards;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      ledger: Ledger;
      users: UserService;
      /** Who invited whom, as the users module hands it out. */
      invitees: InviteeReads;
      events: EventService;
      rankings: Rankings;
      jobs: Jobs;
      settings: GrowthSettingsStore;
      /** Pi's Platform API, which says whether a rewarded ad was watched; null: no Pi. */
      platform: PiPlatform | null;
      logger: Logger;
    },
  ) {
    const { db, clock, ledger, users, invitees, events, rankings, jobs, settings } = deps;
    const repo = new GrowthRepo(db, invitees);
    const points = new Points({ db, ledger, rankings });
    this.points = points;
    this.mine = new Mining({
      db,
      repo,
      clock,
      users,
      events,
      rankings,
      jobs,
      points,
      settings,
      platform: deps.platform,
      logger: deps.logger,
    });
    this.teams = new Team({ db, repo, clock, users, events });
    this.boards = new Boards({ db, clock, users, rankings, jobs, points, settings });
    jobs.handle('mining-end', async (payload) => {
      await this.mine.settle(String(payload.sessionId), { remind: true });
    });
    jobs.handle('ranking-reward', async (payload) => {
      await this.boards.reward(payload.board as RewardBoard, String(payload.period));
    });
  }

  // ------------------------------------------------------------------------------ settings

  settingsInForce(): Promise<GrowthSettings> {
    return this.deps.settings.current();
  }

  changeSetting(key: keyof GrowthSettings, value: number | number[] | null): Promise<void> {
    return this.deps.settings.set(key, value);
  }

  // ------------------------------------------------------------------------------ mining

  status(auth: AuthInfo): Promise<MiningStatus> {
    return this.mine.status(auth);
  }

  checkIn(auth: AuthInfo): Promise<MiningStatus> {
    return this.mine.checkIn(auth);
  }

  setReminders(auth: AuthInfo, on: boolean): Promise<MiningStatus> {
    return this.mine.setReminders(auth, on);
  }

  adBoost(auth: AuthInfo, adId: string): Promise<MiningStatus> {
    return this.mine.adBoost(auth, adId);
  }

  /** Puts an ended session's points into the ledger, once. */
  settle(sessionId: string, options: { remind: boolean }): Promise<boolean> {
    return this.mine.settle(sessionId, options);
  }

  // ------------------------------------------------------------------------------ points

  coin(auth: AuthInfo): Promise<CoinResult> {
    return this.points.coin(auth);
  }

  history(auth: AuthInfo, query: PageQuery): Promise<CoinHistoryResult> {
    return this.points.history(auth, query);
  }

  ecologicalReward(input: {
    userId: string;
    amount: number;
    note: string;
    key: string;
  }): Promise<'given' | 'already'> {
    return this.points.ecologicalReward(input);
  }

  // ------------------------------------------------------------------------------ team

  team(auth: AuthInfo): Promise<TeamResult> {
    return this.teams.team(auth);
  }

  members(auth: AuthInfo, query: PageQuery): Promise<TeamMembersResult> {
    return this.teams.members(auth, query);
  }

  nudge(auth: AuthInfo, memberId: string): Promise<void> {
    return this.teams.nudge(auth, memberId);
  }

  // ------------------------------------------------------------------------------ rankings

  ranking(
    auth: AuthInfo,
    board: RankingBoard,
    which: 'current' | 'previous',
  ): Promise<RankingResult> {
    return this.boards.ranking(auth, board, which);
  }

  /** Resolves once the rankings' writes under way have reached Redis or failed. */
  rankingsSettled(): Promise<void> {
    return this.deps.rankings.settled();
  }

  /** Fills the Redis sets of these boards from SQL (start-up of a node, benchmarks). */
  rebuildRankings(boards: readonly [RankingBoard, string][]): Promise<void> {
    return this.boards.rebuild(boards);
  }

  /** Schedules the rewards of the periods closed before now (idempotent; run on each tick). */
  scheduleRewards(): Promise<void> {
    return this.boards.scheduleRewards();
  }

  /** Credits the top places of a closed period, once per place. */
  reward(board: RewardBoard, period: string): Promise<number> {
    return this.boards.reward(board, period);
  }
}
