/*
 * The few line icons the sign-in page draws before the app's icon library has loaded,
 * as path data on a 24-unit grid, stroked in the text colour. The React password field
 * draws the same ones (text-field.tsx), so a password's eye looks alike everywhere.
 */

export const LINE_ICONS = {
  eye: ['M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z', 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z'],
  eyeOff: [
    'M3 3l18 18',
    'M10.6 5.1A10 10 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3.2 4',
    'M6.6 6.6A17 17 0 0 0 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6',
    'M9.9 9.9a3 3 0 0 0 4.2 4.2',
  ],
  globe: [
    'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Z',
    'M3 12h18',
    'M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3Z',
  ],
} as const;

export type LineIconName = keyof typeof LINE_ICONS;

/** The SVG attributes every line icon shares: 1em square, decorative. */
export const LINE_ICON_FRAME = {
  width: '1em',
  height: '1em',
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  'stroke-width': '1.8',
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
  'aria-hidden': 'true',
  focusable: 'false',
} as const;

/** A line icon as SVG markup, for the sign-in page that is HTML before it is DOM. */
export function lineIconMarkup(name: LineIconName): string {
  const frame = Object.entries(LINE_ICON_FRAME)
    .map(([attribute, value]) => ` ${attribute}="${value}"`)
    .join('');
  const strokes = LINE_ICONS[name].map((d) => `<path d="${d}"></path>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg"${frame}>${strokes}</svg>`;
}
