import { z } from 'zod';
import { userCardSchema } from './chat.js';
import { COIN_RECORD_KINDS, RANKING_BOARDS } from './growth-rules.js';

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
