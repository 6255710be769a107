import { describe, expect, it } from 'vitest';
import { EDGE_PX, GAP_PX, placeMenu } from './message-popover';

const phone = { width: 390, height: 844 };
const menu = { width: 200, height: 300 };

describe('placeMenu', () => {
  it('puts the menu under a received bubble, lined up with its left edge', () => {
    const bubble = { left: 56, top: 100, width: 220, height: 40 };
    expect(placeMenu(bubble, menu, phone, false)).toEqual({
      left: 56,
      top: 140 + GAP_PX,
      side: 'below',
    });
  });

  it("lines it up with the right edge of one's own bubble", () => {
    const bubble = { left: 150, top: 100, width: 228, height: 40 };
    expect(placeMenu(bubble, menu, phone, true).left).toBe(378 - 200);
  });

  it('goes above a bubble near the bottom, as the newest messages are', () => {
    const bubble = { left: 56, top: 700, width: 220, height: 40 };
    expect(placeMenu(bubble, menu, phone, false)).toEqual({
      left: 56,
      top: 700 - GAP_PX - 300,
      side: 'above',
    });
  });

  it('goes over a bubble taller than the room around it, inside the window', () => {
    const bubble = { left: 56, top: 120, width: 300, height: 650 };
    expect(placeMenu(bubble, menu, phone, false)).toEqual({
      left: 56,
      top: 844 - 300 - EDGE_PX,
      side: 'over',
    });
  });

  it('never leaves the window, however wide the menu or far out the bubble', () => {
    const wide = { width: 320, height: 300 };
    const own = placeMenu({ left: 20, top: 100, width: 60, height: 40 }, wide, phone, true);
    expect(own.left).toBe(EDGE_PX);
    const received = placeMenu({ left: 300, top: 100, width: 80, height: 40 }, wide, phone, false);
    expect(received.left).toBe(390 - 320 - EDGE_PX);
    const tall = placeMenu(
      { left: 0, top: 0, width: 10, height: 10 },
      { width: 200, height: 900 },
      phone,
      false,
    );
    expect(tall.top).toBe(EDGE_PX);
  });
});
