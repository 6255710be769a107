import { describe, expect, it } from 'vitest';
import { gramsOf, isShortUnspaced, searchColumns } from './search-text.js';

describe('search text', () => {
  it('makes grams of unspaced runs only: each character and each neighbouring pair, once', () => {
    expect(gramsOf('去北京, go 北京!')).toBe('去 北 去北 京 北京');
    expect(gramsOf('ソウル와 서울')).toBe('ソ ウ ソウ ル ウル 와 ル와 서 울 서울');
    expect(gramsOf('plain words only')).toBeNull();
    expect(gramsOf(null)).toBeNull();
  });

  it('sends one or two unspaced characters to the grams, anything else to trigrams or a scan', () => {
    expect(isShortUnspaced('北京')).toBe(true);
    expect(isShortUnspaced('雨')).toBe(true);
    expect(isShortUnspaced('北京人')).toBe(false);
    expect(isShortUnspaced('ok')).toBe(false);
    expect(isShortUnspaced('京a')).toBe(false);
  });

  it('searches texts, file names and place names, and nothing else', () => {
    expect(searchColumns({ kind: 'text', text: '到北京了' })).toEqual({
      search_text: '到北京了',
      search_grams: '到 北 到北 京 北京 了 京了',
    });
    expect(
      searchColumns({
        kind: 'file',
        file: { id: 'f', name: 'plan.pdf', size: 1, mime: 'application/pdf' },
      }),
    ).toEqual({ search_text: 'plan.pdf', search_grams: null });
    expect(searchColumns({ kind: 'location', latitude: 0, longitude: 0, name: 'Pier' })).toEqual({
      search_text: 'Pier',
      search_grams: null,
    });
    expect(searchColumns({ kind: 'revoke', targetSeq: 1 })).toEqual({
      search_text: null,
      search_grams: null,
    });
  });
});
