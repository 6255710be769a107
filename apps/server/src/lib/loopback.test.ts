import { describe, expect, it } from 'vitest';
import { isLoopback } from './address-bucket.js';

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['2001:db8::1', false],
    ['::', false],
    [undefined, false],
  ])('%s is loopback: %s', (ip, expected) => {
    expect(isLoopback(ip)).toBe(expected);
  });
});
