import { describe, expect, it } from 'vitest';
import { searchTerm } from './search-term';

describe('searchTerm', () => {
  it('reads bare digits as a phone number of the searcher’s country', () => {
    expect(searchTerm(' 138 0013 8000 ', '86')).toBe('+8613800138000');
    expect(searchTerm('020-7946-0958', '+44')).toBe('+442079460958');
  });

  it('keeps a full number’s own country code and leaves IDs and emails as typed', () => {
    expect(searchTerm('+86 138-0013 8000', '1')).toBe('+8613800138000');
    expect(searchTerm('  ada2024x ', '86')).toBe('ada2024x');
    expect(searchTerm('Ada@Example.com', '86')).toBe('Ada@Example.com');
  });

  it('sends digits as typed when the country is unknown', () => {
    expect(searchTerm('13800138000', undefined)).toBe('13800138000');
    expect(searchTerm('---', '86')).toBe('---');
  });
});
