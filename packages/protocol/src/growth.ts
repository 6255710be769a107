import { z } from 'zod';
import { idParams } from './api.js';
import { userCardSchema } from './people.js';
import { endpoint } from './contract.js';
import { COIN_RECORD_KINDS, RANKING_BOARDS } from './growth-rules.js';
import { pageQuery } from './validation.js';

/** Growth: daily mining, points, invitations and team, rankings (constants: growth-rules). */
export const pointsByKind = z.object({
  basic: z.number().int(),
  local: z.number().int(),
  other: z.number().int(),
  ranking: z.number().int(),
  ecological: z.number().int(),
});
export type PointsByKind = z.infer<typeof pointsByKind>;

/** What the person earns now, per hour (thousandths), kind by kind. */
export const miningRateSchema = z.object({
  total: z.number().int(),
  basic: z.number().int(),
  /** The rewarded ad's booster for this session (counted as basic points). */
  ad: z.number().int(),
  local: z.number().int(),
  other: z.number().int(),
  /** Invited members mining now and counted: same country or region, and elsewhere. */
  localMembers: z.number().int(),
  otherMembers: z.number().int(),
  /** Members counted at most (local ones first). */
  membersCap: z.number().int(),
});
export type MiningRate = z.infer<typeof miningRateSchema>;

export const miningStatusSchema = z.object({
  /** Spec §4: not checked in, or mining. */
  state: z.enum(['idle', 'mining']),
  /** The server's time of this answer: count down from here, whatever the device's clock says. */
  serverNow: z.number(),
  session: z
    .object({
      id: z.string(),
      startedAt: z.number(),
      endsAt: z.number(),
      adBoosted: z.boolean(),
      /** Points earned so far in this session (thousandths), settled when it ends. */
      accrued: z.number().int(),
    })
    .nullable(),
  /** The rate now; while idle, the rate a check-in would start with. */
  rate: miningRateSchema,
  /** The rewarded ad's booster per hour, offered once per session. */
  adBooster: z.number().int(),
  reminders: z.boolean(),
  checkins: z.number().int(),
});
export type MiningStatus = z.infer<typeof miningStatusSchema>;

export const miningRemindersBody = z.object({ on: z.boolean() }).strict();
export type MiningRemindersBody = z.infer<typeof miningRemindersBody>;

/** A rewarded ad watched in the Pi Browser: its id, checked with Pi before the booster counts. */
export const miningAdBody = z
  .object({ adId: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, { error: 'invalid' }) })
  .strict();
export type MiningAdBody = z.infer<typeof miningAdBody>;

export const coinResultSchema = z.object({
  balances: pointsByKind,
  total: z.number().int(),
});
export type CoinResult = z.infer<typeof coinResultSchema>;

export const coinRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(COIN_RECORD_KINDS),
  /** Thousandths per points kind (kinds not moved are 0). */
  amounts: pointsByKind,
  total: z.number().int(),
  at: z.number(),
  /** What it was for: the session's start, the board and place, the operator's note. */
  note: z.string(),
});
export type CoinRecord = z.infer<typeof coinRecordSchema>;
export const coinHistoryResult = z.object({
  items: z.array(coinRecordSchema),
  next: z.string().nullable(),
});
export type CoinHistoryResult = z.infer<typeof coinHistoryResult>;

export const teamResultSchema = z.object({
  /** Who invited me (promotion); null when I came on my own. */
  inviter: userCardSchema.nullable(),
  inviteCode: z.string(),
  /** Direct invitees, whether they count yet or not. */
  members: z.number().int(),
  /** Those whose invitation counts (confirmed a phone or e-mail and checked in once). */
  counted: z.number().int(),
  miningNow: z.number().int(),
});
export type TeamResult = z.infer<typeof teamResultSchema>;

export const teamMemberSchema = z.object({
  user: userCardSchema,
  invitedAt: z.number(),
  counted: z.boolean(),
  mining: z.boolean(),
  /** Whether a reminder may be sent now (not mining, and not reminded in the last day). */
  canNudge: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamMembersResult = z.object({
  members: z.array(teamMemberSchema),
  next: z.string().nullable(),
});
export type TeamMembersResult = z.infer<typeof teamMembersResult>;

export const rankingParams = z.object({ board: z.enum(RANKING_BOARDS) });
export const rankingQuery = z.object({
  /** The period running now, or the one before (its final table). Points are of all time. */
  period: z.enum(['current', 'previous']).default('current'),
});
export type RankingQuery = z.infer<typeof rankingQuery>;
export const rankingEntrySchema = z.object({
  rank: z.number().int(),
  user: userCardSchema,
  value: z.number().int(),
});
export type RankingEntry = z.infer<typeof rankingEntrySchema>;
export const rankingResultSchema = z.object({
  board: z.enum(RANKING_BOARDS),
  /** The UTC period: `all`, `YYYY-MM` or `YYYY-MM-DD`. */
  period: z.string(),
  top: z.array(rankingEntrySchema),
  /** My place (null: not on this board) and value. */
  me: z.object({ rank: z.number().int().nullable(), value: z.number().int() }),
});
export type RankingResult = z.infer<typeof rankingResultSchema>;

/** A reminder sent: nothing more to say. */
export const nudgeResult = z.object({ ok: z.literal(true) });
export type NudgeResult = z.infer<typeof nudgeResult>;

/** Mining, points, team and rankings (Discover). */
export const growthEndpoints = {
  mining: endpoint({
    method: 'GET',
    path: '/growth/mining',
    result: miningStatusSchema,
    errors: [],
    access: 'session',
    limits: ['growthReadPerUser'],
    summary: 'My mining state: the session, its rate kind by kind, points so far',
    tags: ['growth'],
  }),
  checkIn: endpoint({
    method: 'POST',
    path: '/growth/mining/checkin',
    result: miningStatusSchema,
    errors: [],
    access: 'session',
    limits: ['miningPerUser'],
    summary: 'Daily check-in: starts a 24-hour mining session (answers the running one)',
    tags: ['growth'],
  }),
  setReminders: endpoint({
    method: 'PUT',
    path: '/growth/mining/reminders',
    body: miningRemindersBody,
    result: miningStatusSchema,
    errors: [],
    access: 'session',
    limits: ['miningPerUser'],
    summary: 'Reminders when a session ends: on or off',
    tags: ['growth'],
  }),
  adBoost: endpoint({
    method: 'POST',
    path: '/growth/mining/ad',
    body: miningAdBody,
    result: miningStatusSchema,
    errors: ['PI_UNAVAILABLE', 'PI_UNREACHABLE', 'AD_NOT_REWARDED', 'NOT_MINING', 'AD_BOOST_USED'],
    access: 'session',
    limits: ['miningPerUser'],
    summary: "A rewarded ad watched in the Pi Browser: the ad booster for the session's rest",
    tags: ['growth'],
  }),
  coin: endpoint({
    method: 'GET',
    path: '/growth/coin',
    result: coinResultSchema,
    errors: [],
    access: 'session',
    limits: ['growthReadPerUser'],
    summary: 'My points, kind by kind and in all (thousandths)',
    tags: ['growth'],
  }),
  coinHistory: endpoint({
    method: 'GET',
    path: '/growth/coin/history',
    query: pageQuery,
    result: coinHistoryResult,
    errors: [],
    access: 'session',
    limits: ['growthReadPerUser'],
    summary: 'Settlements and rewards, newest first',
    tags: ['growth'],
  }),
  team: endpoint({
    method: 'GET',
    path: '/growth/team',
    result: teamResultSchema,
    errors: [],
    access: 'session',
    limits: ['growthReadPerUser'],
    summary: 'My team: who invited me, my invitation code, members and who mines now',
    tags: ['growth'],
  }),
  members: endpoint({
    method: 'GET',
    path: '/growth/team/members',
    query: pageQuery,
    result: teamMembersResult,
    errors: [],
    access: 'session',
    limits: ['growthReadPerUser'],
    summary: 'The people I invited, newest first, with their mining state',
    tags: ['growth'],
  }),
  nudge: endpoint({
    method: 'POST',
    path: '/growth/team/members/:id/nudge',
    params: idParams,
    result: nudgeResult,
    errors: ['TEAM_MEMBER_NOT_FOUND', 'NUDGE_NOT_NEEDED', 'NUDGE_TOO_SOON'],
    access: 'session',
    limits: ['nudgePerUser'],
    summary: 'Remind a member I invited to check in (once a day per member)',
    tags: ['growth'],
  }),
  ranking: endpoint({
    method: 'GET',
    path: '/growth/rankings/:board',
    params: rankingParams,
    query: rankingQuery,
    result: rankingResultSchema,
    errors: [],
    access: 'session',
    limits: ['growthReadPerUser'],
    summary: 'A ranking: the top 100 and my place, this period or the one before',
    tags: ['growth'],
  }),
};
