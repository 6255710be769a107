import type { MiningRate } from '@teltlk/protocol';
import { HOUR } from '../../lib/clock.js';

/**
 * Mining points are computed, never ticked: from a session's start, the rates it began
 * with, and the spans in which invitees were mining beside it. The same function gives
 * the points so far (until now) and the points settled (until the end), so what a person
 * watched grow is what they get.
 */

/** Thousandths of a point per hour, fixed at check-in. */
export interface SessionRates {
  basic: number;
  local: number;
  other: number;
  /** Invitees counted at once. */
  cap: number;
  ad: number;
}

export interface MiningSession {
  startedAt: number;
  endsAt: number;
  /** When a rewarded ad was watched; its booster runs from then to the end. */
  adBoostAt: number | null;
  rates: SessionRates;
}

/** An invitee counted for boosters from `from` to `to`: same country or region, or elsewhere. */
export interface BoosterSpan {
  from: number;
  to: number;
  local: boolean;
}

export interface Accrued {
  basic: number;
  local: number;
  other: number;
}

const clamp = (t: number, low: number, high: number) => Math.min(Math.max(t, low), high);

/** How many of each kind count when `local` and `other` are mining: local ones first, up to the cap. */
function counted(local: number, other: number, cap: number): { local: number; other: number } {
  const l = Math.min(local, cap);
  return { local: l, other: Math.min(other, cap - l) };
}

/**
 * Points earned by `until` (clamped to the session: before its start nothing, after its
 * end the whole session). A clock that went back never gives less than zero.
 */
export function accrue(
  session: MiningSession,
  spans: readonly BoosterSpan[],
  until: number,
): Accrued {
  const { startedAt, endsAt, adBoostAt, rates } = session;
  const end = clamp(until, startedAt, endsAt);
  let basic = rates.basic * (end - startedAt);
  if (adBoostAt !== null) basic += rates.ad * Math.max(0, end - clamp(adBoostAt, startedAt, end));

  // A sweep over the moments members start and stop counting.
  const changes: { at: number; local: number; other: number }[] = [];
  for (const span of spans) {
    const from = clamp(span.from, startedAt, end);
    const to = clamp(span.to, startedAt, end);
    if (to <= from) continue;
    const step = span.local ? { local: 1, other: 0 } : { local: 0, other: 1 };
    changes.push({ at: from, ...step }, { at: to, local: -step.local, other: -step.other });
  }
  changes.sort((a, b) => a.at - b.at);
  let local = 0;
  let other = 0;
  let localSum = 0;
  let otherSum = 0;
  let last = startedAt;
  for (const change of changes) {
    const now = counted(local, other, rates.cap);
    localSum += now.local * (change.at - last);
    otherSum += now.other * (change.at - last);
    local += change.local;
    other += change.other;
    last = change.at;
  }
  return {
    basic: Math.floor(basic / HOUR),
    local: Math.floor((rates.local * localSum) / HOUR),
    other: Math.floor((rates.other * otherSum) / HOUR),
  };
}

/** The rate at `at`, kind by kind, with the members it counts. */
export function rateAt(
  session: MiningSession,
  spans: readonly BoosterSpan[],
  at: number,
): MiningRate {
  const { rates } = session;
  const mining = at >= session.startedAt && at < session.endsAt;
  let local = 0;
  let other = 0;
  if (mining) {
    for (const span of spans) {
      if (span.from <= at && at < span.to) {
        if (span.local) local += 1;
        else other += 1;
      }
    }
  }
  const members = counted(local, other, rates.cap);
  const ad = mining && session.adBoostAt !== null && session.adBoostAt <= at ? rates.ad : 0;
  const rate = {
    basic: rates.basic,
    ad,
    local: members.local * rates.local,
    other: members.other * rates.other,
  };
  return {
    ...rate,
    total: rate.basic + rate.ad + rate.local + rate.other,
    localMembers: members.local,
    otherMembers: members.other,
    membersCap: rates.cap,
  };
}
