import { isWideCharacter } from './wide-script';

/**
 * Backgrounds for avatars without a picture, one picked by id so a person or group keeps
 * theirs everywhere. Each carries white initials at 4.5:1 or better, and neighbours in
 * the list differ in hue, so rows and senders are told apart at a glance.
 */
export const AVATAR_COLOURS = [
  '#C2410C', // orange
  '#B91C1C', // red
  '#BE185D', // pink
  '#7E22CE', // purple
  '#4338CA', // indigo
  '#1D4ED8', // blue
  '#854D0E', // brown
  '#0F766E', // teal
  '#15803D', // green
  '#4D7C0F', // olive
] as const;

/** The same id always gives the same colour (FNV-1a over its UTF-16 units). */
export function avatarColour(id: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return AVATAR_COLOURS[(hash >>> 0) % AVATAR_COLOURS.length]!;
}

const LETTER = /^[\p{L}\p{N}]/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function firstGrapheme(word: string): string {
  for (const { segment } of graphemes.segment(word)) return segment;
  return '';
}

/**
 * What an avatar without a picture shows: one character for a name in a wide script (or
 * one that starts with an emoji), else the first letters of the first two words, upper
 * case ("Ada Lovelace" → "AL", "李小龙" → "李", "🦊 Fox" → "🦊"); "?" for a blank name.
 */
export function avatarInitials(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const first = words[0] ? firstGrapheme(words[0]) : '';
  if (!first) return '?';
  if (isWideCharacter(first) || !LETTER.test(first)) return first;
  const second = words[1] ? firstGrapheme(words[1]) : '';
  const initials =
    second && LETTER.test(second) && !isWideCharacter(second) ? first + second : first;
  return initials.toLocaleUpperCase();
}
