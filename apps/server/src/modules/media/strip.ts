/**
 * Metadata taken out of photos without decoding them: the picture's bytes stay as the
 * camera wrote them (no second lossy encoding, no time spent on one), and what could say
 * who took it, where and with what goes.
 */

/** JPEG segments kept: JFIF (APP0), the colour profile (APP2), Adobe's colour transform (APP14). */
const JPEG_KEPT_APPS = new Set([0xe0, 0xe2, 0xee]);
/** PNG chunks that carry text, a time or EXIF. */
const PNG_DROPPED_CHUNKS = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A JPEG cleaned: its new head, and where in the old file the encoded picture begins. */
export interface StrippedJpeg {
  /** Start of image, the segments kept, and the orientation alone when it is not upright. */
  head: Buffer;
  /** Offset of the start of scan: from there on, the file is kept as it is. */
  scanFrom: number;
}

/**
 * The JPEG without its EXIF, XMP, IPTC, comments and makers' segments; an orientation
 * other than upright (1) is kept, alone, in an EXIF segment of its own, so the photo
 * still shows the right way up. Null when the bytes are not a well-formed JPEG.
 */
export function stripJpeg(input: Buffer, orientation: number): Buffer | null {
  const stripped = stripJpegHead(input, orientation);
  return stripped && Buffer.concat([stripped.head, input.subarray(stripped.scanFrom)]);
}

/**
 * The metadata segments all come before the start of scan, so the head of the file is
 * all there is to read and write again: `input` needs to hold the file up to there.
 * Null when it is not a well-formed JPEG, or holds no start of scan.
 */
export function stripJpegHead(input: Buffer, orientation: number): StrippedJpeg | null {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== 0xd8) return null;
  const parts: Buffer[] = [input.subarray(0, 2)];
  if (orientation > 1 && orientation <= 8) parts.push(orientationSegment(orientation));
  let at = 2;
  while (at < input.length) {
    if (input[at] !== 0xff) return null;
    const marker = input[at + 1];
    if (marker === undefined) return null;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // Markers without a length: the start of image, restarts, TEM.
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      parts.push(input.subarray(at, at + 2));
      at += 2;
      continue;
    }
    // An end of image before any scan: no picture.
    if (marker === 0xd9) return null;
    if (at + 4 > input.length) return null;
    const length = input.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > input.length) return null;
    // From the start of scan on, the entropy-coded picture follows: kept to the end.
    if (marker === 0xda) return { head: Buffer.concat(parts), scanFrom: at };
    const application = marker >= 0xe0 && marker <= 0xef;
    const comment = marker === 0xfe;
    if (!(application && !JPEG_KEPT_APPS.has(marker)) && !comment) {
      parts.push(input.subarray(at, end));
    }
    at = end;
  }
  return null;
}

/** Longest JPEG segment: a two-byte marker and a length of at most 65,535 that counts itself. */
const JPEG_SEGMENT_MAX = 2 + 0xffff;
/** Shortest: a marker and its length, nothing in it. */
const JPEG_SEGMENT_MIN = 4;

/**
 * A stripped JPEG head grown to exactly `length` bytes by empty comment segments (zeros,
 * right after the start of image), so that it can take the old head's place in the file
 * itself: the picture after it is neither read nor written again. Null when the gap
 * cannot be filled (one to three bytes).
 */
export function padJpegHead(head: Buffer, length: number): Buffer | null {
  let gap = length - head.length;
  if (gap === 0) return head;
  if (gap < JPEG_SEGMENT_MIN) return null;
  const parts: Buffer[] = [head.subarray(0, 2)];
  while (gap > 0) {
    let size = Math.min(gap, JPEG_SEGMENT_MAX);
    // Leave enough for one more whole segment.
    if (gap - size > 0 && gap - size < JPEG_SEGMENT_MIN) size -= JPEG_SEGMENT_MIN;
    const segment = Buffer.alloc(size);
    segment[0] = 0xff;
    segment[1] = 0xfe;
    segment.writeUInt16BE(size - 2, 2);
    parts.push(segment);
    gap -= size;
  }
  parts.push(head.subarray(2));
  return Buffer.concat(parts, length);
}

/** An EXIF segment holding the orientation alone (big-endian TIFF, one IFD entry). */
function orientationSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** The PNG (or APNG) without its text, time and EXIF chunks; null when it is not well formed. */
export function stripPng(input: Buffer): Buffer | null {
  if (input.length < 8 || !input.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const parts: Buffer[] = [input.subarray(0, 8)];
  let at = 8;
  while (at < input.length) {
    if (at + 12 > input.length) return null;
    const length = input.readUInt32BE(at);
    const type = input.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > input.length) return null;
    if (!PNG_DROPPED_CHUNKS.has(type)) parts.push(input.subarray(at, end));
    at = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(parts);
}
