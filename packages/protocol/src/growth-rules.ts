/**
 * Growth's constants, free of schemas: a screen that needs only these does not download
 * zod (growth.ts holds the schemas). Points are counted in thousandths (an amount of 1000
 * is one point), so every sum stays a whole number.
 */
export const POINT_UNITS = 1000;

/** The kinds of points, each a balance of its own (spec §3). */
export const POINTS_KINDS = ['basic', 'local', 'other', 'ranking', 'ecological'] as const;
export type PointsKind = (typeof POINTS_KINDS)[number];

/** A mining session lasts a day from check-in. */
export const MINING_SESSION_MS = 24 * 60 * 60 * 1000;

export const COIN_RECORD_KINDS = ['mining', 'ranking', 'ecological'] as const;

/** Spec §2: rankings of global points, monthly invites and daily invites. */
export const RANKING_BOARDS = ['points', 'monthInvites', 'dayInvites'] as const;
export type RankingBoard = (typeof RANKING_BOARDS)[number];
export const RANKING_TOP = 100;
