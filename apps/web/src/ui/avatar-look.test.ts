import { describe, expect, it } from 'vitest';
import { AVATAR_COLOURS, avatarColour, avatarInitials } from './avatar-look';

/** WCAG relative luminance of a #RRGGBB colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe('avatar colour', () => {
  it('is the same for the same id, and spread over the palette', () => {
    expect(avatarColour('u_123')).toBe(avatarColour('u_123'));
    const used = new Set(Array.from({ length: 200 }, (_, n) => avatarColour(`user-${n}`)));
    expect(used.size).toBe(AVATAR_COLOURS.length);
  });

  it('carries white initials at 4.5:1 or better on every colour', () => {
    for (const colour of AVATAR_COLOURS)
      expect((1 + 0.05) / (luminance(colour) + 0.05), colour).toBeGreaterThanOrEqual(4.5);
  });
});

describe('avatar initials', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada', 'A'],
    ['  émile   zola  ', 'ÉZ'],
    ['李小龙', '李'],
    ['山田 太郎', '山'],
    ['김민준', '김'],
    ['Ann 李', 'A'],
    ['🦊 Fox', '🦊'],
    ['👩‍👩‍👧 family', '👩‍👩‍👧'],
    ['مريم أحمد', 'مأ'],
    ['', '?'],
    ['   ', '?'],
  ])('%j → %j', (name, initials) => {
    expect(avatarInitials(name)).toBe(initials);
  });
});
