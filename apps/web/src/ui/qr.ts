import { renderSVG } from 'uqr';

/** A QR code of `text` as an image address (an SVG data URL: no canvas, no network). */
export function qrImage(text: string): string {
  return `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(text, { border: 2 }))}`;
}
