import type { Friend } from '@teltlk/protocol';

/** The section of names that start with neither a Latin letter nor a Chinese character. */
export const OTHER_SECTION = '#';

const LETTERS = 'ABCDEFGHJKLMNOPQRSTWXYZ';
/**
 * The first character of each pinyin initial (no I, U, V) in the Chinese collation's
 * order, found by sorting the CJK block with Intl.Collator('zh-CN'): a Han character
 * belongs to the last boundary that sorts at or before it. Saves a pinyin dictionary.
 */
const PINYIN_BOUNDARIES = '吖八嚓咑妸发旮哈丌咔垃呣拏喔妑七呥仨他屲夕丫帀';

const hanPattern = /\p{Script=Han}/u;

let pinyinCollator: Intl.Collator | null | undefined;

/** null where the runtime has no Chinese collation data (small ICU builds sort by code point). */
function chineseCollator(): Intl.Collator | null {
  if (pinyinCollator !== undefined) return pinyinCollator;
  try {
    const collator = new Intl.Collator('zh-CN');
    const ordered =
      collator.resolvedOptions().locale.startsWith('zh') &&
      collator.compare('八', '吖') > 0 &&
      collator.compare('张', '王') > 0;
    pinyinCollator = ordered ? collator : null;
  } catch {
    pinyinCollator = null;
  }
  return pinyinCollator;
}

/** The index letter of a name: A–Z for Latin letters, the pinyin initial for Chinese, else '#'. */
export function indexLetter(name: string): string {
  const first = Array.from(name.trim())[0];
  if (!first) return OTHER_SECTION;
  const latin = first.normalize('NFKD').charAt(0).toUpperCase();
  if (latin >= 'A' && latin <= 'Z') return latin;
  if (!hanPattern.test(first)) return OTHER_SECTION;
  const collator = chineseCollator();
  if (!collator) return OTHER_SECTION;
  let letter = OTHER_SECTION;
  for (let index = 0; index < PINYIN_BOUNDARIES.length; index += 1) {
    if (collator.compare(PINYIN_BOUNDARIES[index]!, first) > 0) break;
    letter = LETTERS[index]!;
  }
  return letter;
}

/** What the list shows for a friend: the caller's remark when set, else the nickname. */
export function friendName(friend: Pick<Friend, 'remark' | 'user'>): string {
  return friend.remark?.trim() || friend.user.nickname;
}

export interface FriendSection {
  letter: string;
  friends: Friend[];
}

/** Inside a section Latin names come before Chinese ones, then everything else. */
function scriptRank(name: string): number {
  const first = Array.from(name.trim())[0] ?? '';
  if (/\p{Script=Latin}/u.test(first)) return 0;
  return hanPattern.test(first) ? 1 : 2;
}

/**
 * Friends in alphabetical sections by the first letter of their shown name, A–Z then
 * '#'. Inside a section: Latin names, then Chinese names (by pinyin where the runtime
 * knows it), then the rest.
 */
export function sectionFriends(friends: readonly Friend[]): FriendSection[] {
  const collator = chineseCollator() ?? new Intl.Collator('en');
  const compare = (a: Friend, b: Friend) => {
    const nameA = friendName(a);
    const nameB = friendName(b);
    return (
      scriptRank(nameA) - scriptRank(nameB) ||
      collator.compare(nameA, nameB) ||
      (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0)
    );
  };
  const sections = new Map<string, Friend[]>();
  for (const friend of friends) {
    const letter = indexLetter(friendName(friend));
    const section = sections.get(letter);
    if (section) section.push(friend);
    else sections.set(letter, [friend]);
  }
  return [...sections]
    .sort(([a], [b]) => {
      if (a === OTHER_SECTION) return 1;
      if (b === OTHER_SECTION) return -1;
      return a < b ? -1 : a > b ? 1 : 0;
    })
    .map(([letter, members]) => ({
      letter,
      friends: members.sort(compare),
    }));
}
