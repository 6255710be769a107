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
