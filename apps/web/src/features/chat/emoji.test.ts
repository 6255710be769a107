import { describe, expect, it } from 'vitest';
import { EMOJI, insertAt, largeEmojiCount } from './emoji';

describe('emoji panel', () => {
  it('offers distinct emoji', () => {
    expect(EMOJI.length).toBeGreaterThan(30);
    expect(new Set(EMOJI).size).toBe(EMOJI.length);
    expect(EMOJI.every((emoji) => emoji.trim() === emoji && emoji.length > 0)).toBe(true);
  });

  it('inserts at the caret or replaces the selection', () => {
    expect(insertAt('hello world', '😀', 5, 5)).toEqual({ text: 'hello😀 world', caret: 7 });
    expect(insertAt('hello world', '👍', 6, 11)).toEqual({ text: 'hello 👍', caret: 8 });
    expect(insertAt('', '🎉', 3, 9)).toEqual({ text: '🎉', caret: 2 });
  });
});

describe('largeEmojiCount', () => {
  it('counts one to three emoji, spaces between allowed', () => {
    expect(largeEmojiCount('😀')).toBe(1);
    expect(largeEmojiCount('👍👍')).toBe(2);
    expect(largeEmojiCount(' 🎉 🎉  🎉 ')).toBe(3);
  });

  it('counts a skin tone, a flag, a keycap and a ZWJ sequence as one emoji each', () => {
    expect(largeEmojiCount('👍🏽')).toBe(1);
    expect(largeEmojiCount('🇹🇼🇯🇵')).toBe(2);
    expect(largeEmojiCount('1️⃣')).toBe(1);
    expect(largeEmojiCount('#️⃣*️⃣')).toBe(2);
    expect(largeEmojiCount('👨‍👩‍👧‍👦')).toBe(1);
    expect(largeEmojiCount('👩🏾‍💻🏳️‍🌈❤️‍🔥')).toBe(3);
    expect(largeEmojiCount('👩‍🦰')).toBe(1);
    expect(largeEmojiCount('🏴󠁧󠁢󠁳󠁣󠁴󠁿')).toBe(1);
  });

  it('takes every emoji of the panel as large', () => {
    expect(EMOJI.every((emoji) => largeEmojiCount(emoji) === 1)).toBe(true);
  });

  it('leaves text, digits, symbols drawn as text, and more than three emoji alone', () => {
    expect(largeEmojiCount('')).toBe(0);
    expect(largeEmojiCount('   ')).toBe(0);
    expect(largeEmojiCount('1')).toBe(0);
    expect(largeEmojiCount('#')).toBe(0);
    expect(largeEmojiCount('#1')).toBe(0);
    expect(largeEmojiCount('©')).toBe(0);
    expect(largeEmojiCount('❤')).toBe(0);
    expect(largeEmojiCount('ok 👍')).toBe(0);
    expect(largeEmojiCount('👍!')).toBe(0);
    expect(largeEmojiCount('好😀')).toBe(0);
    expect(largeEmojiCount('😀😀😀😀')).toBe(0);
    expect(largeEmojiCount('\u200D😀')).toBe(0);
  });
});
