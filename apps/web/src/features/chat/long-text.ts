import { isWideCharacter } from '../../ui/wide-script';

/** A received text longer than this (in narrow-character widths) folds. */
export const FOLD_MAX_WIDTH = 600;
/** A received text of more lines than this folds. */
export const FOLD_MAX_LINES = 12;

/** Whether a received text is long enough to show folded, with "Show more". */
export function isLongText(text: string): boolean {
  let width = 0;
  let lines = 1;
  for (const character of text) {
    if (character === '\n') lines += 1;
    width += isWideCharacter(character) ? 2 : 1;
    if (width > FOLD_MAX_WIDTH || lines > FOLD_MAX_LINES) return true;
  }
  return false;
}

/**
 * Long messages the reader unfolded, by conversation and message: kept while the page
 * lives, so scrolling a message out of the list and back, or reopening the chat, keeps it
 * open; a reload folds them again.
 */
const unfolded = new Set<string>();

export function isUnfolded(key: string): boolean {
  return unfolded.has(key);
}

export function setUnfolded(key: string, open: boolean): void {
  if (open) unfolded.add(key);
  else unfolded.delete(key);
}
