/**
 * Whether a character is of a script about twice as wide as Latin letters, one of which
 * fills what two letters do: Chinese, Japanese and Korean.
 */
const WIDE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function isWideCharacter(character: string): boolean {
  return WIDE.test(character);
}
