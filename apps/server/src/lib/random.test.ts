import { describe, expect, it } from 'vitest';
import { newId, newSortableId } from './random.js';

describe('newSortableId', () => {
  it('has the shape of newId and sorts by time', () => {
    const earlier = newSortableId(1_736_942_400_123);
    const later = newSortableId(1_736_942_400_124);
    expect(earlier).toMatch(/^[0-9a-hjkmnp-tv-z]{20}$/);
    expect(earlier.length).toBe(newId().length);
    expect(earlier < later).toBe(true);
    // Far apart times too: the time part is fixed-width.
    expect(newSortableId(9) < newSortableId(1_736_942_400_123)).toBe(true);
    // Random after the time part.
    expect(newSortableId(5)).not.toBe(newSortableId(5));
  });
});
