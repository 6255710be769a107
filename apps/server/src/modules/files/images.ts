import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import sharp, { type Sharp } from 'sharp';
import { AppError } from '../../errors.js';

/**
 * The image kinds accepted, by the type their magic bytes show (a client's file name and
 * Content-Type say nothing), each with the sharp decoder that must read it. Everything
 * else sharp could open (SVG, TIFF, HEIF, AVIF, …) stays out: each is a decoder more
 * facing the internet, and SVG is a document rather than a picture.
 */
const ACCEPTED: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  // An animated PNG is a PNG; decoders show its first frame.
  'image/apng': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * Most pixels an uploaded image may have. A 12 MP phone photo (4032×3024) fits, and the
 * 5 MB upload limit rules out most photos above 16 MP anyway; avatars keep 256×256 of it.
 * A PNG or GIF decodes whole, so this bounds one decode to 64 MB (4 bytes a pixel), where
 * a few KB of PNG can claim any size (50 MP meant 200 MB).
 */
export const MAX_IMAGE_PIXELS = 16_000_000;

/**
 * An uploaded image (its bytes, or the path of its file), ready to transform, after the cheap checks: its magic bytes name an
 * accepted kind, sharp reads the same kind from its header, and the header's size is
 * within MAX_IMAGE_PIXELS. Nothing is decoded beyond the header until the caller asks,
 * and then under the same pixel limit.
 */
/** An image opened for transforming, with the header read to check it. */
export interface OpenedImage {
  image: Sharp;
  header: sharp.Metadata;
}

export async function openImage(input: Buffer | string): Promise<OpenedImage> {
  // A path is read by sharp itself, off the event loop, without a copy in memory.
  const sniffed = await (typeof input === 'string'
    ? fileTypeFromFile(input)
    : fileTypeFromBuffer(input));
  const format = sniffed && Object.hasOwn(ACCEPTED, sniffed.mime) ? ACCEPTED[sniffed.mime] : null;
  if (!format) throw new AppError('IMAGE_TYPE_UNSUPPORTED');
  let header: sharp.Metadata;
  try {
    // The header only; the limit is checked below to tell a too-large image from a broken one.
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('IMAGE_INVALID');
  }
  if (header.format !== format) throw new AppError('IMAGE_TYPE_UNSUPPORTED');
  if (!header.width || !header.height) throw new AppError('IMAGE_INVALID');
  if (header.width * header.height > MAX_IMAGE_PIXELS) {
    throw new AppError('IMAGE_TOO_LARGE', { megapixels: MAX_IMAGE_PIXELS / 1_000_000 });
  }
  return { image: sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS }), header };
}
