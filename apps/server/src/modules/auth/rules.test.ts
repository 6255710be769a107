import { CODE_PATTERN, VERIFICATION_CODE_LENGTH } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { generateCode, hashCode } from './rules.js';

describe('generateCode', () => {
  it('makes codes of the protocol length, digits only', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateCode();
      expect(code).toHaveLength(VERIFICATION_CODE_LENGTH);
      expect(code).toMatch(CODE_PATTERN);
    }
  });

  it('uses every digit in every position (no fixed or skewed characters)', () => {
    const seen = Array.from({ length: VERIFICATION_CODE_LENGTH }, () => new Set<string>());
    for (let i = 0; i < 2000; i += 1)
      [...generateCode()].forEach((digit, at) => seen[at]?.add(digit));
    for (const digits of seen) expect(digits.size).toBe(10);
  });
});

describe('hashCode', () => {
  it('is a sha256 hex digest that hides the code', () => {
    const hash = hashCode('row1', '123456');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('123456');
  });

  it('is stable for the same row and code', () => {
    expect(hashCode('row1', '123456')).toBe(hashCode('row1', '123456'));
  });

  it('differs by code and by row (salted)', () => {
    expect(hashCode('row1', '123456')).not.toBe(hashCode('row1', '123457'));
    expect(hashCode('row1', '123456')).not.toBe(hashCode('row2', '123456'));
  });
});
