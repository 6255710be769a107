import { describe, expect, it } from 'vitest';
import { accruedNow, clockText, formatPoints } from './points';

describe('points on screen', () => {
  it('shows thousandths as points', () => {
    expect(formatPoints(6000, 'en-US')).toBe('6');
    expect(formatPoints(1250, 'en-US')).toBe('1.25');
    expect(formatPoints(1250, 'en-US', 3)).toBe('1.250');
    expect(formatPoints(1_234_567, 'en-US')).toBe('1,234.567');
  });

  it('counts the time left as hh:mm:ss', () => {
    expect(clockText(86_400)).toBe('24:00:00');
    expect(clockText(3_661)).toBe('01:01:01');
    expect(clockText(-5)).toBe('00:00:00');
  });

  it('grows from the server’s figure at the rate, however wrong the device clock is', () => {
    // Answered when this device read 1,000,000 (its clock hours off does not matter).
    expect(accruedNow(500, 360, 1_000_000, 1_000_000, 10_000_000)).toBe(500);
    expect(accruedNow(500, 360, 1_000_000, 1_000_000 + 3_600_000, 10_000_000)).toBe(860);
    // Never past the end of the session, never backwards.
    expect(accruedNow(500, 360, 1_000_000, 1_000_000 + 36_000_000, 3_600_000)).toBe(860);
    expect(accruedNow(500, 360, 1_000_000, 0, 3_600_000)).toBe(500);
  });
});
