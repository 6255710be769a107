import { describe, expect, it } from 'vitest';
import { secondsUntil } from './use-countdown';
import { relativeTime } from './time';

describe('relativeTime', () => {
  const now = Date.UTC(2026, 0, 10, 12);
  it('describes recent moments', () => {
    expect(relativeTime(now - 20_000, now, 'en-US')).toBe('now');
    expect(relativeTime(now - 5 * 60_000, now, 'en-US')).toBe('5 minutes ago');
    expect(relativeTime(now - 26 * 3600_000, now, 'en-US')).toBe('yesterday');
    expect(relativeTime(now - 5 * 60_000, now, 'zh-CN')).toBe('5分钟前');
  });
});

describe('secondsUntil', () => {
  it('rounds up and never goes below zero', () => {
    expect(secondsUntil(null, 0)).toBe(0);
    expect(secondsUntil(60_000, 0)).toBe(60);
    expect(secondsUntil(59_001, 0)).toBe(60);
    expect(secondsUntil(1_000, 5_000)).toBe(0);
  });
});
