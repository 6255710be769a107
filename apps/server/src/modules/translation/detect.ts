import { isLanguageCode } from '@teltlk/protocol';
import { eld } from 'eld/extrasmall';

/**
 * The source language of a message, detected when it is sent. The detector (ELD: n-gram
 * statistics over 60 languages, a few microseconds a message) is asked about the words
 * alone; links, e-mail addresses and @mentions say nothing of the language. Short or
 * mixed texts it cannot call reliably ("ok", "gracias") are taken to be in the sender's
 * mother tongue, the best guess there is; so is a detected language that is the sender's
 * own written another way (`zh` for a `zh-Hant` or `yue` speaker).
 */

/** Codes the detector answers that the mother-tongue list spells differently. */
const DETECTOR_CODES: Readonly<Record<string, string>> = { tl: 'fil' };

/** Languages the detector cannot tell from the one it names. */
const SAME_WRITING: Readonly<Record<string, readonly string[]>> = {
  zh: ['zh-Hant', 'yue'],
  no: ['nb', 'nn'],
  sr: ['bs', 'hr'],
  ms: ['id'],
};

const NOISE = /(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+|@\S+/giu;
const LETTER = /\p{L}/u;

/**
 * The language of `text` as a mother-tongue code, or null when it holds no words to
 * translate (only emoji, numbers, links). `fallback`: the sender's mother tongue.
 */
export function detectLanguage(text: string, fallback: string | null): string | null {
  const words = text.replace(NOISE, ' ');
  if (!LETTER.test(words)) return null;
  const result = eld.detect(words);
  const detected = DETECTOR_CODES[result.language] ?? result.language;
  if (!detected || !isLanguageCode(detected) || !result.isReliable()) return fallback;
  if (fallback && SAME_WRITING[detected]?.includes(fallback)) return fallback;
  return detected;
}
