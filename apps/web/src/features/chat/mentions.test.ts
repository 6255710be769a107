import { describe, expect, it } from 'vitest';
import {
  collectMentions,
  filterMentionables,
  insertMention,
  mentionQueryAt,
  mentionsMe,
  splitMentions,
} from './mentions';

describe('mentionQueryAt', () => {
  it('finds the @word typed before the caret', () => {
    expect(mentionQueryAt('hi @', 4)).toEqual({ start: 3, query: '' });
    expect(mentionQueryAt('@bo', 3)).toEqual({ start: 0, query: 'bo' });
    expect(mentionQueryAt('hi @bo and', 6)).toEqual({ start: 3, query: 'bo' });
  });

  it('ignores email addresses and finished words', () => {
    expect(mentionQueryAt('ann@example', 11)).toBeNull();
    expect(mentionQueryAt('@bob hi', 7)).toBeNull();
    expect(mentionQueryAt('no at sign', 10)).toBeNull();
  });
});

describe('insertMention', () => {
  it('replaces the typed query by the name and moves the caret after it', () => {
    expect(insertMention('hi @bo!', 3, 6, 'Bob Lee')).toEqual({ text: 'hi @Bob Lee !', caret: 12 });
  });
});

describe('filterMentionables', () => {
  const members = [
    { id: 'u1', name: 'Ann' },
    { id: 'u2', name: 'Bob' },
  ];
  it('matches names and ids, case-insensitively', () => {
    expect(filterMentionables(members, 'an')).toEqual([members[0]]);
    expect(filterMentionables(members, 'U2')).toEqual([members[1]]);
    expect(filterMentionables(members, '')).toEqual(members);
  });
});

describe('collectMentions', () => {
  const picked = [
    { id: 'u1', name: 'Ann' },
    { id: 'u2', name: 'Bob' },
    { id: 'u1', name: 'Ann' },
  ];
  it('keeps only the people still named in the text, once each', () => {
    expect(collectMentions('@Ann hello', picked, { label: 'All', allowed: false })).toEqual({
      mentions: ['u1'],
    });
  });

  it('adds @all only for those allowed to use it', () => {
    expect(collectMentions('@All look', [], { label: 'All', allowed: true })).toEqual({
      mentionAll: true,
    });
    expect(collectMentions('@All look', [], { label: 'All', allowed: false })).toEqual({});
  });
});

describe('mentionsMe', () => {
  it('is true for a mention by id or @all', () => {
    expect(mentionsMe({ mentions: ['me'] }, 'me')).toBe(true);
    expect(mentionsMe({ mentionAll: true }, 'me')).toBe(true);
    expect(mentionsMe({ mentions: ['other'] }, 'me')).toBe(false);
    expect(mentionsMe({}, 'me')).toBe(false);
  });
});

describe('splitMentions', () => {
  it('marks @name parts, preferring the longest name', () => {
    expect(splitMentions('hi @Bob Lee and @Ann!', ['Bob', 'Bob Lee', 'Ann'])).toEqual([
      { text: 'hi ', mention: false },
      { text: '@Bob Lee', mention: true },
      { text: ' and ', mention: false },
      { text: '@Ann', mention: true },
      { text: '!', mention: false },
    ]);
  });

  it('leaves text without known names whole', () => {
    expect(splitMentions('mail a@b.c', ['Ann'])).toEqual([{ text: 'mail a@b.c', mention: false }]);
    expect(splitMentions('plain', [])).toEqual([{ text: 'plain', mention: false }]);
  });
});
