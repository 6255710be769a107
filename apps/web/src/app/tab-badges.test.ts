import { describe, expect, it } from 'vitest';
import { badgeText } from './tab-badges';

describe('badgeText', () => {
  it('is empty when there is nothing to count', () => {
    expect(badgeText(undefined)).toBeNull();
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-2)).toBeNull();
  });

  it('shows the count, capped at 99+', () => {
    expect(badgeText(3)).toBe('3');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});
