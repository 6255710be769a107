import type { RankingBoard } from '@teltlk/protocol';

/** Ranking periods, in UTC: points are of all time, invites per day and per month. */

export const ALL_TIME = 'all';

const iso = (at: number) => new Date(at).toISOString();

export function dayOf(at: number): string {
  return iso(at).slice(0, 10);
}

export function monthOf(at: number): string {
  return iso(at).slice(0, 7);
}

/** The period of `board` that holds the moment `at`. */
export function periodOf(board: RankingBoard, at: number): string {
  if (board === 'points') return ALL_TIME;
  return board === 'dayInvites' ? dayOf(at) : monthOf(at);
}

/** When the period holding `at` began, in epoch ms (UTC). */
export function periodStart(board: Exclude<RankingBoard, 'points'>, at: number): number {
  const date = new Date(at);
  return board === 'dayInvites'
    ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())
    : Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The period before the one holding `at` (for points, all time again). */
export function previousPeriodOf(board: RankingBoard, at: number): string {
  if (board === 'points') return ALL_TIME;
  return periodOf(board, periodStart(board, at) - 1);
}
