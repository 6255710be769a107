import { matchRanges } from '@teltlk/protocol';

/** A piece of a hit's line: plain, or the words searched for. */
export interface HitPart {
  text: string;
  hit: boolean;
}

/** A first match further in than this is brought forward, so it shows on a narrow row… */
const CUT_AFTER_CHARS = 24;
/** …keeping this many characters before it. */
const LEAD_CHARS = 12;

/**
 * One line of a hit: the text flattened to one line, starting a little before its first
 * match when that lies far in (an ellipsis marks the cut), split into plain and matching
 * parts.
 */
export function hitParts(text: string, query: string): HitPart[] {
  let line = text.replace(/\s+/g, ' ').trim();
  let ranges = matchRanges(line, query);
  const first = ranges[0];
  if (first && first[0] > CUT_AFTER_CHARS) {
    // At the start of a word, where the lead cuts one.
    let cut = first[0] - LEAD_CHARS;
    const space = line.indexOf(' ', cut);
    if (space !== -1 && space < first[0] && line[cut - 1] !== ' ') cut = space + 1;
    line = `…${line.slice(cut)}`;
    ranges = ranges.map(([start, end]) => [start - cut + 1, end - cut + 1]);
  }
  const parts: HitPart[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push({ text: line.slice(at, start), hit: false });
    parts.push({ text: line.slice(start, end), hit: true });
    at = end;
  }
  if (at < line.length) parts.push({ text: line.slice(at), hit: false });
  return parts;
}
