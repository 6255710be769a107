/** A member the composer's @ picker offers. */
export interface Mentionable {
  id: string;
  name: string;
}

/** The "@word" being typed just before the caret, if any: where it starts and its text. */
export function mentionQueryAt(
  text: string,
  caret: number,
): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  // An "@" inside a word (an email address) is no mention.
  if (at > 0 && !/\s/.test(before[at - 1] ?? '')) return null;
  const query = before.slice(at + 1);
  if (/\s/.test(query)) return null;
  return { start: at, query };
}

/** Replaces the "@query" typed from `start` to `caret` by "@name " and puts the caret after it. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  name: string,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  return {
    text: text.slice(0, start) + inserted + text.slice(caret),
    caret: start + inserted.length,
  };
}

/** Members whose name or id holds the query, case-insensitively. */
export function filterMentionables<T extends Mentionable>(
  members: readonly T[],
  query: string,
): T[] {
  const folded = query.trim().toLocaleLowerCase();
  if (!folded) return [...members];
  return members.filter(
    (member) =>
      member.name.toLocaleLowerCase().includes(folded) ||
      member.id.toLocaleLowerCase().includes(folded),
  );
}

/**
 * What a sent text mentions: the people picked whose "@name" is still in the text (the
 * user may have deleted it since), and @all when its label is there and allowed.
 */
export function collectMentions(
  text: string,
  picked: readonly Mentionable[],
  all: { label: string; allowed: boolean },
): { mentions?: string[]; mentionAll?: true } {
  const ids: string[] = [];
  for (const person of picked) {
    if (!ids.includes(person.id) && text.includes(`@${person.name}`)) ids.push(person.id);
  }
  const result: { mentions?: string[]; mentionAll?: true } = {};
  if (ids.length > 0) result.mentions = ids;
  if (all.allowed && text.includes(`@${all.label}`)) result.mentionAll = true;
  return result;
}

/** Whether a message mentions this reader, by name or by @all. */
export function mentionsMe(
  content: { mentions?: readonly string[]; mentionAll?: boolean },
  selfId: string,
): boolean {
  return content.mentionAll === true || (content.mentions?.includes(selfId) ?? false);
}

export type TextPart = { text: string; mention: boolean };

/**
 * Splits a message's text into plain parts and "@name" parts to highlight. `names` are
 * the names the mentioned people may have been written with; longer ones win.
 */
export function splitMentions(text: string, names: readonly string[]): TextPart[] {
  const tokens = [...new Set(names.filter((name) => name.length > 0))]
    .sort((a, b) => b.length - a.length)
    .map((name) => `@${name}`);
  if (tokens.length === 0) return text ? [{ text, mention: false }] : [];
  const parts: TextPart[] = [];
  let plain = '';
  let index = 0;
  while (index < text.length) {
    const token =
      text[index] === '@' ? tokens.find((item) => text.startsWith(item, index)) : undefined;
    if (token) {
      if (plain) parts.push({ text: plain, mention: false });
      plain = '';
      parts.push({ text: token, mention: true });
      index += token.length;
    } else {
      plain += text[index];
      index += 1;
    }
  }
  if (plain) parts.push({ text: plain, mention: false });
  return parts;
}
