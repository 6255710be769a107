import type { Friend } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { friendName, indexLetter, OTHER_SECTION, sectionFriends } from './sections';

function friend(id: string, nickname: string, remark: string | null = null): Friend {
  return {
    user: {
      id,
      teltlkId: `t${id}abcdef`,
      nickname,
      avatarUrl: null,
      country: 'CN',
      motherTongue: 'zh',
      official: false,
    },
    remark,
    since: 1,
  };
}

describe('indexLetter', () => {
  it('takes the upper-case Latin letter, accents removed', () => {
    expect(indexLetter('alice')).toBe('A');
    expect(indexLetter('  Zoë')).toBe('Z');
    expect(indexLetter('Émile')).toBe('E');
    expect(indexLetter('Ｂｏｂ')).toBe('B');
  });

  it('puts digits, symbols, emoji, other scripts and blanks under #', () => {
    for (const name of ['42', '_x', '😀 hi', 'Яна', 'سارا', '', '   ']) {
      expect(indexLetter(name), name).toBe(OTHER_SECTION);
    }
  });

  it('uses the pinyin initial of a Chinese name, simplified or traditional', () => {
    const expected: Record<string, string> = {
      阿: 'A',
      白: 'B',
      陈: 'C',
      邓: 'D',
      鹅: 'E',
      冯: 'F',
      高: 'G',
      黄: 'H',
      金: 'J',
      孔: 'K',
      刘: 'L',
      劉: 'L',
      吕: 'L',
      马: 'M',
      牛: 'N',
      欧: 'O',
      彭: 'P',
      钱: 'Q',
      任: 'R',
      孙: 'S',
      他: 'T',
      唐: 'T',
      王: 'W',
      徐: 'X',
      杨: 'Y',
      张: 'Z',
      張: 'Z',
      周: 'Z',
    };
    for (const [name, letter] of Object.entries(expected)) {
      expect(indexLetter(`${name}小明`), name).toBe(letter);
    }
  });
});

describe('friendName', () => {
  it('prefers a non-blank remark over the nickname', () => {
    expect(friendName(friend('1', 'Ada', 'Boss'))).toBe('Boss');
    expect(friendName(friend('1', 'Ada', '  '))).toBe('Ada');
    expect(friendName(friend('1', 'Ada'))).toBe('Ada');
  });
});

describe('sectionFriends', () => {
  it('sections by the shown name, A–Z first and # last, each sorted', () => {
    const sections = sectionFriends([
      friend('1', 'zed'),
      friend('2', '9lives'),
      friend('3', 'Bob'),
      friend('4', 'Amy', 'Zoe'),
      friend('5', '张伟'),
      friend('6', 'anna'),
      friend('7', '安娜'),
      friend('8', 'Émile'),
    ]);
    expect(sections.map((section) => section.letter)).toEqual(['A', 'B', 'E', 'Z', '#']);
    expect(sections.map((section) => section.friends.map(friendName))).toEqual([
      ['anna', '安娜'],
      ['Bob'],
      ['Émile'],
      ['zed', 'Zoe', '张伟'],
      ['9lives'],
    ]);
  });

  it('keeps friends with the same name in a stable order and returns nothing for no friends', () => {
    const sections = sectionFriends([friend('b', 'Sam'), friend('a', 'Sam')]);
    expect(sections[0]?.friends.map((item) => item.user.id)).toEqual(['a', 'b']);
    expect(sectionFriends([])).toEqual([]);
  });
});
