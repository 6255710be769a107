import { describe, expect, it } from 'vitest';
import { FOLD_MAX_LINES, FOLD_MAX_WIDTH, isLongText, isUnfolded, setUnfolded } from './long-text';

describe('isLongText', () => {
  it('folds past 600 Latin characters or 12 lines', () => {
    expect(isLongText('a'.repeat(FOLD_MAX_WIDTH))).toBe(false);
    expect(isLongText('a'.repeat(FOLD_MAX_WIDTH + 1))).toBe(true);
    expect(isLongText(Array(FOLD_MAX_LINES).fill('line').join('\n'))).toBe(false);
    expect(
      isLongText(
        Array(FOLD_MAX_LINES + 1)
          .fill('line')
          .join('\n'),
      ),
    ).toBe(true);
  });

  it('counts Chinese, Japanese and Korean characters double, as they are twice as wide', () => {
    expect(isLongText('字'.repeat(FOLD_MAX_WIDTH / 2))).toBe(false);
    expect(isLongText('字'.repeat(FOLD_MAX_WIDTH / 2 + 1))).toBe(true);
    expect(isLongText('한'.repeat(FOLD_MAX_WIDTH / 2 + 1))).toBe(true);
  });

  it('counts an emoji as one character, not two code units', () => {
    expect(isLongText('😀'.repeat(FOLD_MAX_WIDTH))).toBe(false);
  });
});

describe('unfolded messages', () => {
  it('remembers which messages the reader opened', () => {
    expect(isUnfolded('si_a_b/b:1')).toBe(false);
    setUnfolded('si_a_b/b:1', true);
    expect(isUnfolded('si_a_b/b:1')).toBe(true);
    expect(isUnfolded('si_a_b/b:2')).toBe(false);
    setUnfolded('si_a_b/b:1', false);
    expect(isUnfolded('si_a_b/b:1')).toBe(false);
  });
});
