import { describe, expect, it } from 'vitest';
import { filterBySearch, foldForSearch } from './search';

describe('search', () => {
  it('ignores case and accents', () => {
    expect(foldForSearch('  Côte d’Ivoire ')).toBe('cote d’ivoire');
    expect(foldForSearch('ÅLAND')).toBe('aland');
  });

  it('matches every word anywhere in the text', () => {
    const items = ['South Korea +82', 'South Africa +27', 'Korea North'];
    expect(filterBySearch(items, 'korea south', (item) => item)).toEqual(['South Korea +82']);
    expect(filterBySearch(items, '+27', (item) => item)).toEqual(['South Africa +27']);
    expect(filterBySearch(items, '   ', (item) => item)).toEqual(items);
  });

  it('finds Chinese names', () => {
    expect(filterBySearch(['中国 +86', '美国 +1'], '中', (item) => item)).toEqual(['中国 +86']);
  });
});
