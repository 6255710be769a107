import type { PageQuery, TeamMembersResult, TeamResult } from '@teltlk/protocol';
import { cursorOf } from '../../db/keyset.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, type Clock } from '../../lib/clock.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { EventService } from '../events/service.js';
import type { UserService } from '../users/service.js';
import type { GrowthRepo } from './repo.js';

/** A team member is reminded at most once a day. */
export const NUDGE_INTERVAL_MS = DAY;

/** The team (spec §3): whom a person invited, who of them counts and mines, and nudges. */
export class Team {
  constructor(
    private readonly deps: {
      db: Db;
      repo: GrowthRepo;
      clock: Clock;
      users: UserService;
      events: EventService;
    },
  ) {}

  async team(auth: AuthInfo): Promise<TeamResult> {
    const { repo, clock, users } = this.deps;
    const me = await users.get(auth.userId);
    const counts = await repo.teamCounts(me.id, clock.now());
    const inviter = me.invited_by
      ? (await users.cardsOf([me.invited_by])).get(me.invited_by)
      : undefined;
    return {
      inviter: inviter ?? null,
      inviteCode: me.invite_code,
      members: Number(counts.members),
      counted: Number(counts.counted),
      miningNow: Number(counts.mining ?? 0),
    };
  }

  /** Direct invitees, newest first. */
  async members(auth: AuthInfo, query: PageQuery): Promise<TeamMembersResult> {
    const { repo, clock, users } = this.deps;
    const now = clock.now();
    const rows = await repo.teamPage(auth.userId, query.limit, query.cursor);
    const page = rows.slice(0, query.limit);
    const members = page.map((row) => {
      const mining = row.ends_at !== null && Number(row.ends_at) > now;
      const recentlyNudged =
        row.nudged_at !== null && Number(row.nudged_at) > now - NUDGE_INTERVAL_MS;
      return {
        user: users.toCard(row),
        invitedAt: Number(row.created_at),
        counted: row.qualified_at !== null,
        mining,
        canNudge: !mining && !recentlyNudged,
      };
    });
    const last = page[page.length - 1];
    return {
      members,
      next: rows.length > query.limit && last ? cursorOf(last.created_at, last.id) : null,
    };
  }

  /** Reminds a team member who is not mining to check in (spec: sendCheckinInform). */
  async nudge(auth: AuthInfo, memberId: string): Promise<void> {
    const { db, clock, events, users } = this.deps;
    const by = (await users.cardsOf([auth.userId])).get(auth.userId) ?? null;
    const pending = await db.transaction().execute(async (trx) => {
      const repo = this.deps.repo.in(trx);
      const now = clock.now();
      if (!(await repo.isInvitee(auth.userId, memberId))) {
        throw new AppError('TEAM_MEMBER_NOT_FOUND');
      }
      const miner = await repo.minerMade(memberId);
      if (miner.ends_at !== null && Number(miner.ends_at) > now)
        throw new AppError('NUDGE_NOT_NEEDED');
      if (!(await repo.markNudged(memberId, now, now - NUDGE_INTERVAL_MS))) {
        throw new AppError('NUDGE_TOO_SOON');
      }
      return events.append(trx, memberId, { type: 'mining', reason: 'nudged', points: 0, by });
    });
    events.publish([pending]);
  }
}
