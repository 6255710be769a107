/** The emoji panel: common faces, hands and symbols (plain text, so no font or image). */
export const EMOJI: readonly string[] = (
  '😀 😁 😂 🤣 😊 😍 😘 😎 🤔 😅 😉 🙂 🙃 😇 🥰 🤩 ' +
  '😢 😭 😡 😱 😴 🤗 🤝 🙏 👍 👎 👏 🙌 💪 👌 ✌️ 👋 ' +
  '❤️ 💔 🔥 🎉 🎁 🌹 ⭐ 💯 ✅ ❌ ⚡ ☕ 🍺 🍰 🌍 🚀'
).split(' ');

/** Puts `insert` in place of the selection and returns the new text and caret. */
export function insertAt(
  text: string,
  insert: string,
  selectionStart: number,
  selectionEnd: number,
): { text: string; caret: number } {
  const start = Math.max(0, Math.min(selectionStart, text.length));
  const end = Math.max(start, Math.min(selectionEnd, text.length));
  return { text: text.slice(0, start) + insert + text.slice(end), caret: start + insert.length };
}

/** Up to this many emoji alone make a message that shows large, as in other messengers. */
export const LARGE_EMOJI_MAX = 3;

/**
 * One emoji as people see it: a keycap (1️⃣), a flag (two regional indicators), or
 * pictographs joined by ZWJ, each with its skin tone, presentation selector and tags
 * (🏴󠁧󠁢󠁳󠁣󠁴󠁿). A character drawn as text by default (❤, ✌, ©) counts only with the
 * emoji selector U+FE0F or a skin tone, so "©" or "#" stays text.
 */
const EMOJI_ELEMENT =
  '(?:\\p{Emoji_Presentation}|\\p{Extended_Pictographic}(?=\\uFE0F|\\p{Emoji_Modifier}))' +
  '\\uFE0F?\\p{Emoji_Modifier}?(?:[\\u{E0020}-\\u{E007E}]+\\u{E007F})?';
const JOINED_ELEMENT = '\\p{Extended_Pictographic}\\uFE0F?\\p{Emoji_Modifier}?';
const ONE_EMOJI = new RegExp(
  `[0-9#*]\\uFE0F?\\u20E3|\\p{Regional_Indicator}{2}|${EMOJI_ELEMENT}(?:\\u200D${JOINED_ELEMENT})*`,
  'uy',
);

/**
 * How many emoji a text is made of when it is nothing but one to `LARGE_EMOJI_MAX` emoji
 * (spaces between allowed), else 0. Each emoji counts once however many code points it
 * takes, so a family or a flag is one.
 */
export function largeEmojiCount(text: string): number {
  const compact = text.replace(/\s+/gu, '');
  let count = 0;
  ONE_EMOJI.lastIndex = 0;
  while (ONE_EMOJI.lastIndex < compact.length) {
    if (!ONE_EMOJI.test(compact)) return 0;
    count += 1;
    if (count > LARGE_EMOJI_MAX) return 0;
  }
  return count;
}
