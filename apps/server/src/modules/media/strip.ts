/**
 * Metadata taken out of photos without decoding them: the picture's bytes stay as the
 * camera wrote them (no second lossy encoding, no time spent on one), and what could say
 * who took it, where and with what goes.
 */

/** Application segments kept, by marker, each when it is what it says it is (see keptApp). */
const APP0 = 0xe0;
const APP2 = 0xe2;
const APP14 = 0xee;
/** JFIF's own fields, before the thumbnail it may carry. */
const JFIF_FIELDS = 14;
/** Adobe's colour transform segment: its name and four fields, nothing else. */
const ADOBE_FIELDS = 12;
const ICC_PROFILE = Buffer.from('ICC_PROFILE\0', 'latin1');
/**
 * PNG chunks kept: the picture, how it is drawn (colour, transparency, pixel shape) and
 * an APNG's frames. Text, times, EXIF and anything private (editors', Apple's, C2PA
 * manifests) go: none of it is shown.
 */
const PNG_KEPT_CHUNKS = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'cHRM',
  'gAMA',
  'iCCP',
  'sBIT',
  'sRGB',
  'cICP',
  'mDCV',
  'cLLI',
  'bKGD',
  'hIST',
  'pHYs',
  'sPLT',
  'acTL',
  'fcTL',
  'fdAT',
]);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A JPEG cleaned: its new head, where the encoded picture begins and where the image ends. */
export interface StrippedJpeg {
  /** Start of image, the segments kept, and the orientation alone when it is not upright. */
  head: Buffer;
  /** Offset of the first start of scan: from there on, the file is kept as it is… */
  scanFrom: number;
  /**
   * …up to here, the end of its end-of-image marker. What follows (a phone's second
   * picture, a motion photo's film) is not part of the picture and is left out.
   */
  end: number;
  /**
   * Metadata segments between the scans (none from any camera), as [start, end) pairs:
   * while there are any, the picture cannot be kept as it is (stripJpeg cuts them out).
   */
  between: [number, number][];
}

/**
 * The JPEG without its EXIF, XMP, IPTC, comments, makers' segments, second pictures
 * (MPF) and whatever follows its end of image (a motion photo's film); an orientation
 * other than upright (1) is kept, alone, in an EXIF segment of its own, so the photo
 * still shows the right way up. Null when the bytes are not a well-formed JPEG.
 */
export function stripJpeg(input: Buffer, orientation: number): Buffer | null {
  const stripped = stripJpegHead(input, orientation);
  if (!stripped) return null;
  const parts = [stripped.head];
  let at = stripped.scanFrom;
  for (const [start, end] of stripped.between) {
    parts.push(input.subarray(at, start));
    at = end;
  }
  parts.push(input.subarray(at, stripped.end));
  return Buffer.concat(parts);
}

/**
 * The metadata segments come before the start of scan, so the head of the file is all
 * there is to write again; the scans are walked to their end of image. Null when it is
 * not a well-formed JPEG: no start of scan, or no end of image (cut short).
 */
export function stripJpegHead(input: Buffer, orientation: number): StrippedJpeg | null {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== 0xd8) return null;
  const parts: Buffer[] = [input.subarray(0, 2)];
  if (orientation > 1 && orientation <= 8) parts.push(orientationSegment(orientation));
  let at = 2;
  while (at < input.length) {
    const segment = segmentAt(input, at);
    if (!segment) return null;
    // An end of image before any scan: no picture.
    if (segment.marker === 0xd9) return null;
    if (segment.marker === 0xda) {
      const tail = scansFrom(input, at);
      return tail && { head: Buffer.concat(parts), scanFrom: at, ...tail };
    }
    const kept = keptSegment(input, segment);
    if (kept) parts.push(kept);
    at = segment.end;
  }
  return null;
}

/** One marker and its segment: [at, end). Fill bytes before a marker are a segment of none. */
interface Segment {
  marker: number;
  at: number;
  end: number;
}

function segmentAt(input: Buffer, at: number): Segment | null {
  if (input[at] !== 0xff) return null;
  const marker = input[at + 1];
  if (marker === undefined) return null;
  // Fill bytes before a marker.
  if (marker === 0xff) return { marker, at, end: at + 1 };
  // Markers without a length: the start and end of image, restarts, TEM.
  if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
    return { marker, at, end: at + 2 };
  }
  if (at + 4 > input.length) return null;
  const length = input.readUInt16BE(at + 2);
  const end = at + 2 + length;
  if (length < 2 || end > input.length) return null;
  return { marker, at, end };
}

/** What is kept of a segment before the picture: null for metadata. */
function keptSegment(input: Buffer, { marker, at, end }: Segment): Buffer | null {
  const data = input.subarray(at + 4, end);
  if (marker === 0xff || marker === 0xd8) return input.subarray(at, end);
  if (marker === 0xfe) return null;
  if (marker < 0xe0 || marker > 0xef) return input.subarray(at, end);
  // JFIF without its thumbnail (a picture of its own); JFXX is nothing but thumbnails.
  if (marker === APP0 && data.length >= JFIF_FIELDS && data.toString('latin1', 0, 5) === 'JFIF\0') {
    const jfif = Buffer.from(input.subarray(at, at + 4 + JFIF_FIELDS));
    jfif.writeUInt16BE(2 + JFIF_FIELDS, 2);
    jfif[4 + 12] = 0;
    jfif[4 + 13] = 0;
    return jfif;
  }
  // APP2 holds the colour profile, but also MPF's index of second pictures and FlashPix.
  if (marker === APP2 && data.subarray(0, ICC_PROFILE.length).equals(ICC_PROFILE)) {
    return input.subarray(at, end);
  }
  if (
    marker === APP14 &&
    data.length >= ADOBE_FIELDS &&
    data.toString('latin1', 0, 5) === 'Adobe'
  ) {
    const adobe = Buffer.from(input.subarray(at, at + 4 + ADOBE_FIELDS));
    adobe.writeUInt16BE(2 + ADOBE_FIELDS, 2);
    return adobe;
  }
  return null;
}

/**
 * Walks the scans from the first start of scan to the end of image: each scan's coded
 * bytes run to the next marker (0xFF followed by neither a stuffed zero nor a restart);
 * between scans come tables, and now and then a metadata segment. Null when the file
 * ends first.
 */
function scansFrom(input: Buffer, at: number): Omit<StrippedJpeg, 'head' | 'scanFrom'> | null {
  const between: [number, number][] = [];
  for (;;) {
    const segment = segmentAt(input, at);
    if (!segment) return null;
    if (segment.marker === 0xd9) return { end: segment.end, between };
    if (segment.marker === 0xd8) return null;
    const metadata = segment.marker === 0xfe || (segment.marker >= 0xe0 && segment.marker <= 0xef);
    if (metadata) between.push([segment.at, segment.end]);
    at = segment.end;
    if (segment.marker !== 0xda) continue;
    // The coded picture: up to the next marker that is not a restart.
    for (;;) {
      at = input.indexOf(0xff, at);
      if (at < 0 || at + 1 >= input.length) return null;
      const next = input[at + 1]!;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        at += 2;
        continue;
      }
      break;
    }
  }
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

/**
 * The PNG (or APNG) with the chunks that draw it and nothing else, ending at its IEND;
 * null when it is not well formed, is cut short, or has a critical chunk no decoder knows.
 */
export function stripPng(input: Buffer): Buffer | null {
  if (input.length < 8 || !input.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const parts: Buffer[] = [input.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= input.length) {
    const length = input.readUInt32BE(at);
    const type = input.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > input.length) return null;
    if (PNG_KEPT_CHUNKS.has(type)) parts.push(input.subarray(at, end));
    // An unknown chunk a decoder must understand (its first letter capital): no picture.
    else if (/^[A-Z]/.test(type)) return null;
    if (type === 'IEND') return Buffer.concat(parts);
    at = end;
  }
  return null;
}

/** GIF application extensions kept: the loop count (Netscape's, and its older twin). */
const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);
const GIF_IMAGE = 0x2c;
const GIF_EXTENSION = 0x21;
const GIF_TRAILER = 0x3b;
const GIF_GRAPHIC_CONTROL = 0xf9;
const GIF_APPLICATION = 0xff;

/**
 * The GIF with its frames, their timing and its loop count, and nothing else: comments,
 * plain text (which browsers never draw), application data (XMP, Photoshop's IPTC,
 * profiles) and whatever follows the trailer go. The frames' bytes are kept as they are.
 * Null when it is not well formed or ends inside a block.
 */
export function stripGif(input: Buffer): Buffer | null {
  const signature = input.toString('latin1', 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return null;
  if (input.length < 13) return null;
  const packed = input[10]!;
  let at = 13 + (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);
  const parts: Buffer[] = [input.subarray(0, at)];
  while (at < input.length) {
    const introducer = input[at];
    if (introducer === GIF_TRAILER) break;
    let end: number | null;
    let kept: boolean;
    if (introducer === GIF_IMAGE) {
      if (at + 10 > input.length) return null;
      const local = input[at + 9]!;
      // The descriptor, its colour table, the LZW code size, then the coded picture.
      const data = at + 10 + (local & 0x80 ? 3 << ((local & 7) + 1) : 0) + 1;
      end = subBlocksEnd(input, data);
      kept = true;
    } else if (introducer === GIF_EXTENSION) {
      const label = input[at + 1];
      end = subBlocksEnd(input, at + 2);
      kept =
        label === GIF_GRAPHIC_CONTROL ||
        (label === GIF_APPLICATION &&
          input[at + 2] === 11 &&
          GIF_KEPT_APPLICATIONS.has(input.toString('latin1', at + 3, at + 14)));
    } else {
      return null;
    }
    if (end === null) return null;
    if (kept) parts.push(input.subarray(at, end));
    at = end;
  }
  // A GIF whose blocks all ended but whose trailer is missing gets one.
  parts.push(Buffer.from([GIF_TRAILER]));
  return Buffer.concat(parts);
}

/** Where a run of data sub-blocks (each a length byte, then that many bytes) ends. */
function subBlocksEnd(input: Buffer, at: number): number | null {
  while (at < input.length) {
    const length = input[at]!;
    at += 1 + length;
    if (length === 0) return at;
  }
  return null;
}
