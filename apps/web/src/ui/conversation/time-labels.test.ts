import { describe, expect, it } from 'vitest';
import { clockTime, dayLabel, daysBetween, formatDuration, listTime } from './time-labels';

const at = (d: number, h: number, m = 0) => new Date(2026, 2, d, h, m).getTime();

describe('time labels', () => {
  const now = at(20, 9);

  it('counts calendar days, not 24-hour spans', () => {
    expect(daysBetween(at(20, 0, 1), now)).toBe(0);
    expect(daysBetween(at(19, 23, 59), now)).toBe(1);
    expect(daysBetween(at(13, 12), now)).toBe(7);
  });

  it('shows the clock today, yesterday by name, the weekday within a week, the date beyond', () => {
    expect(listTime(at(20, 8, 5), now, 'en-US', 'Yesterday')).toBe(
      clockTime(at(20, 8, 5), 'en-US'),
    );
    expect(clockTime(at(20, 8, 5), 'en-US')).toBe('08:05');
    expect(listTime(at(19, 22), now, 'en-US', 'Yesterday')).toBe('Yesterday');
    expect(listTime(at(16, 10), now, 'en-US', 'Yesterday')).toBe('Mon');
    expect(listTime(at(2, 10), now, 'en-US', 'Yesterday')).toBe('3/2');
    expect(listTime(new Date(2025, 11, 31).getTime(), now, 'en-US', 'Yesterday')).toBe('12/31/25');
  });

  it('names day separators', () => {
    const labels = { today: 'Today', yesterday: 'Yesterday' };
    expect(dayLabel(at(20, 1), now, 'en-US', labels)).toBe('Today');
    expect(dayLabel(at(19, 1), now, 'en-US', labels)).toBe('Yesterday');
    expect(dayLabel(at(1, 1), now, 'en-US', labels)).toBe('Mar 1, 2026');
  });

  it('states durations in the largest whole unit', () => {
    expect(formatDuration(30, 'en-US')).toBe('30 seconds');
    expect(formatDuration(120, 'en-US')).toBe('2 minutes');
    expect(formatDuration(3600, 'en-US')).toBe('1 hour');
    expect(formatDuration(86400, 'zh-CN')).toBe('1天');
  });
});
