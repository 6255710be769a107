import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../lib/clock.js';
import { accrue, rateAt, type MiningSession } from './accrual.js';
import { dayOf, monthOf, periodOf, periodStart, previousPeriodOf } from './periods.js';

const start = Date.UTC(2026, 10, 26, 18, 0, 0);
const session = (over: Partial<MiningSession> = {}): MiningSession => ({
  startedAt: start,
  endsAt: start + 24 * HOUR,
  adBoostAt: null,
  rates: { basic: 250, local: 50, other: 25, cap: 2, ad: 100 },
  ...over,
});

describe('mining accrual', () => {
  it('earns the basic rate for the time mined, across midnight, and the whole day at the end', () => {
    // 18:00 to 18:00 the next day crosses midnight UTC: nothing resets there.
    expect(accrue(session(), [], start + 6 * HOUR).basic).toBe(1500);
    expect(accrue(session(), [], start + 24 * HOUR).basic).toBe(6000);
    expect(accrue(session(), [], start + 30 * HOUR).basic).toBe(6000);
  });

  it('never goes below zero or past the end when the clock is off', () => {
    const before = accrue(session(), [], start - 5 * MINUTE);
    expect(before).toEqual({ basic: 0, local: 0, other: 0 });
    expect(accrue(session(), [], Number.MAX_SAFE_INTEGER).basic).toBe(6000);
    expect(rateAt(session(), [], start - MINUTE).total).toBe(250);
  });

  it('counts a booster only while the invitee mines beside the session', () => {
    // A local invitee mines from hour 2 to hour 8 (joins and leaves mid-session).
    const spans = [{ from: start + 2 * HOUR, to: start + 8 * HOUR, local: true }];
    expect(accrue(session(), spans, start + HOUR).local).toBe(0);
    expect(accrue(session(), spans, start + 5 * HOUR).local).toBe(150);
    expect(accrue(session(), spans, start + 24 * HOUR).local).toBe(300);
    expect(rateAt(session(), spans, start + 3 * HOUR)).toMatchObject({
      total: 300,
      local: 50,
      localMembers: 1,
    });
    expect(rateAt(session(), spans, start + 9 * HOUR)).toMatchObject({
      total: 250,
      localMembers: 0,
    });
  });

  it('counts an invitee elsewhere at the other-region rate, and spans outside the session not at all', () => {
    const spans = [
      { from: start - 10 * HOUR, to: start + 2 * HOUR, local: false },
      { from: start + 30 * HOUR, to: start + 40 * HOUR, local: false },
    ];
    expect(accrue(session(), spans, start + 24 * HOUR)).toEqual({
      basic: 6000,
      local: 0,
      other: 50,
    });
  });

  it('counts at most the cap of members at once, same-region ones first', () => {
    const spans = [
      { from: start, to: start + 24 * HOUR, local: false },
      { from: start, to: start + 24 * HOUR, local: true },
      { from: start, to: start + 12 * HOUR, local: true },
    ];
    // Cap 2: two local members for the first 12 h, then one local and one elsewhere.
    const points = accrue(session(), spans, start + 24 * HOUR);
    expect(points.local).toBe(50 * 2 * 12 + 50 * 12);
    expect(points.other).toBe(25 * 12);
    expect(rateAt(session(), spans, start + HOUR)).toMatchObject({
      localMembers: 2,
      otherMembers: 0,
      membersCap: 2,
    });
  });

  it('adds the ad booster from the moment the ad was watched', () => {
    const boosted = session({ adBoostAt: start + 12 * HOUR });
    expect(accrue(boosted, [], start + 6 * HOUR).basic).toBe(1500);
    expect(accrue(boosted, [], start + 24 * HOUR).basic).toBe(6000 + 1200);
    expect(rateAt(boosted, [], start + 13 * HOUR)).toMatchObject({ ad: 100, total: 350 });
  });

  it('shows the same points while mining as it settles at the end (monotone, no double rounding)', () => {
    const spans = [{ from: start + 7 * MINUTE, to: start + 3 * HOUR + 11, local: true }];
    let last = -1;
    for (let t = start; t <= start + 24 * HOUR; t += 7 * MINUTE + 13) {
      const { basic, local, other } = accrue(session(), spans, t);
      const total = basic + local + other;
      expect(total).toBeGreaterThanOrEqual(last);
      last = total;
    }
  });
});

describe('ranking periods (UTC)', () => {
  it('puts the last millisecond of a day in that day, and the next one in the next', () => {
    const midnight = Date.UTC(2026, 11, 1);
    expect(dayOf(midnight - 1)).toBe('2026-11-30');
    expect(dayOf(midnight)).toBe('2026-12-01');
    expect(monthOf(midnight - 1)).toBe('2026-11');
    expect(monthOf(midnight)).toBe('2026-12');
    expect(periodOf('points', midnight)).toBe('all');
  });

  it('knows the period before, across months and years', () => {
    expect(previousPeriodOf('dayInvites', Date.UTC(2027, 0, 1, 0, 0, 1))).toBe('2026-12-31');
    expect(previousPeriodOf('monthInvites', Date.UTC(2027, 0, 15))).toBe('2026-12');
    expect(previousPeriodOf('monthInvites', Date.UTC(2026, 2, 1))).toBe('2026-02');
    expect(previousPeriodOf('points', Date.UTC(2026, 2, 1))).toBe('all');
    expect(periodStart('monthInvites', Date.UTC(2026, 1, 28, 23))).toBe(Date.UTC(2026, 1, 1));
  });
});
