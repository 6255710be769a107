import { describe, expect, it } from 'vitest';
import { searchTextOf } from '@teltlk/protocol';
import { hitParts } from './search-hits';

describe('hitParts', () => {
  it('marks every match, whatever its case', () => {
    expect(hitParts('Harbour at six, the harbour', 'HARBOUR')).toEqual([
      { text: 'Harbour', hit: true },
      { text: ' at six, the ', hit: false },
      { text: 'harbour', hit: true },
    ]);
  });

  it('starts a long line shortly before its first match, on one line', () => {
    const parts = hitParts('We talked about many things\nand then about the 北京 trip', '北京');
    expect(parts[0]).toEqual({ text: '…about the ', hit: false });
    expect(parts[1]).toEqual({ text: '北京', hit: true });
    expect(parts[2]).toEqual({ text: ' trip', hit: false });
  });

  it('keeps a short line whole', () => {
    expect(hitParts('The ferry to Lantau leaves', 'lantau')[0]).toEqual({
      text: 'The ferry to ',
      hit: false,
    });
  });

  it('gives the line as it is when nothing matches', () => {
    expect(hitParts('plain', 'zz')).toEqual([{ text: 'plain', hit: false }]);
  });
});

describe('searchTextOf', () => {
  it('is what the server searches: texts, file names and place names', () => {
    expect(searchTextOf({ kind: 'text', text: 'hi' })).toBe('hi');
    expect(searchTextOf({ kind: 'location', latitude: 0, longitude: 0, name: 'Pier' })).toBe(
      'Pier',
    );
    expect(searchTextOf({ kind: 'revoked' })).toBeNull();
  });
});
