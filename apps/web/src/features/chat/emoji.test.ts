import { describe, expect, it } from 'vitest';
import { EMOJI, insertAt } from './emoji';

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
