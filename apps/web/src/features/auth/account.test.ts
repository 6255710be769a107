import { describe, expect, it } from 'vitest';
import { normaliseAccount } from './account';

describe('normaliseAccount', () => {
  it('strips spaces and dashes from phone numbers', () => {
    expect(normaliseAccount(' +86 138-0000-0000 ')).toBe('+8613800000000');
  });

  it('lower-cases email addresses', () => {
    expect(normaliseAccount('Pioneer@Example.COM ')).toBe('pioneer@example.com');
  });

  it('keeps a Teltlk ID as typed', () => {
    expect(normaliseAccount(' Pioneer7 ')).toBe('Pioneer7');
  });
});
