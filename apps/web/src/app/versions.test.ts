import { describe, expect, it } from 'vitest';
import { compareVersions, standingOf } from './versions';

describe('versions', () => {
  it('compares part by part, as numbers', () => {
    expect(compareVersions('1.0.02', '1.0.2')).toBe(0);
    expect(compareVersions('1.0.10', '1.0.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0', '1.0.1')).toBeLessThan(0);
    expect(compareVersions('2', '1.9.9')).toBeGreaterThan(0);
  });

  it('tells what the server answer means for this copy', () => {
    const server = { version: '1.0.3', minimum: '1.0.1', maintenance: false };
    expect(standingOf('1.0.0', server)).toBe('required');
    expect(standingOf('1.0.2', server)).toBe('available');
    expect(standingOf('1.0.3', server)).toBe('current');
    expect(standingOf('1.0.3', { ...server, maintenance: true })).toBe('maintenance');
  });
});
