import { searchTextOf, type MessageContent } from '@teltlk/protocol';
import type { MessageRow } from '../../db/schema.js';

/**
 * Characters of scripts written without spaces between words (Chinese, Japanese kana,
 * Korean, Thai, …): their words are often one or two characters long, shorter than a
 * trigram index can find.
 */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Whether a search for `query` goes by its grams: one or two unspaced characters. */
export function isShortUnspaced(query: string): boolean {
  const chars = Array.from(query);
  return chars.length <= 2 && chars.every((char) => UNSPACED.test(char));
}

/**
 * The grams a text is found by when its words are shorter than a trigram: every
 * character of a run of unspaced script, and every pair of neighbours in it, each once,
 * separated by spaces; null when there is none.
 */
export function gramsOf(text: string | null): string | null {
  if (text === null) return null;
  const grams = new Set<string>();
  let previous: string | null = null;
  for (const char of text) {
    if (!UNSPACED.test(char)) {
      previous = null;
      continue;
    }
    grams.add(char);
    if (previous !== null) grams.add(previous + char);
    previous = char;
  }
  return grams.size === 0 ? null : [...grams].join(' ');
}

/** The columns a message is searched by (see migration 0011). */
export function searchColumns(
  content: MessageContent,
): Pick<MessageRow, 'search_text' | 'search_grams'> {
  const text = searchTextOf(content);
  return { search_text: text, search_grams: gramsOf(text) };
}
