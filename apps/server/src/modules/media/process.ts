import { readFile, truncate } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { AppError } from '../../errors.js';
import { MAX_IMAGE_PIXELS, openImage } from '../files/images.js';
import { padJpegHead, stripGif, stripJpeg, stripJpegHead, stripPng } from './strip.js';

// Each photo is read once: libvips' operation cache would only hold memory (and copy
// into it) for results nobody asks for again. Photos are processed one per core at a
// time (MediaService), so each runs on one thread: threads splitting one small
// thumbnail between them spend more on handing work over than they save.
sharp.cache(false);
sharp.concurrency(1);

/** Longest side of a thumbnail: a chat bubble at twice its CSS size. */
const THUMB_SIDE_PX = 480;
/**
 * The picture ThumbHash reads: it takes up to 100×100 pixels, but a blur of a few colours
 * comes out the same from 32×32, read in a fiftieth of the time.
 */
const PLACEHOLDER_SIDE_PX = 32;
/**
 * A JPEG's metadata is blanked where it lies (zeros in its place) rather than cut out
 * when it is at most this share of the file: the picture then stays where it is and the
 * uploaded file becomes the stored one without a copy, for a few KB more of a photo.
 * Larger metadata (a camera's big maker notes) is cut out, the file copied.
 */
const BLANKED_SHARE = 1 / 32;

/** A stored object to be: bytes and their type. */
export interface Rendition {
  data: Buffer;
  mime: string;
}

/**
 * The original as it will be stored: new bytes, or a new head followed by the uploaded
 * file from `from` on (a JPEG's picture, kept without a copy in memory).
 */
export type Original =
  { data: Buffer; mime: string } | { head: Buffer; path: string; from: number; mime: string };

/** A photo made ready to store: the original without its metadata, its thumbnail, a placeholder. */
export interface ProcessedImage {
  original: Original;
  thumb: Rendition;
  /** Its size as shown, upright. */
  width: number;
  height: number;
  placeholder: string;
}

/**
 * Reads an uploaded photo from disk and makes it ready to store. Its type is what its
 * bytes show (openImage refuses anything but JPEG, PNG, WebP and GIF, and pixel bombs).
 * A JPEG, PNG or GIF keeps its picture as it was encoded and loses its metadata (camera,
 * place, time; a JPEG keeps its orientation alone, so it still shows upright) and any
 * bytes past the end of the picture (a second picture, a motion photo's film): what is
 * stored is what is shown. A WebP is encoded again without them. One decode, shrunk as
 * it loads, makes both the thumbnail and the placeholder.
 */
export async function processImage(path: string): Promise<ProcessedImage> {
  // The photo is read once. Given its path, sharp would open the file again for each of
  // its loaders asking whether the file is theirs, at each step (some thirty opens a
  // photo), and read it in small pieces. Photos are processed one per core at a time, so
  // only a few are in memory at once.
  const input = await readFile(path);
  let opened;
  try {
    opened = await openImage(input);
  } catch (error) {
    // openImage names the avatar's errors; here they are a photo's.
    if (error instanceof AppError && error.code === 'IMAGE_TYPE_UNSUPPORTED') {
      throw new AppError('MEDIA_TYPE_UNSUPPORTED');
    }
    throw error;
  }
  try {
    const { image, header } = opened;
    const { format, width, height, orientation = 1 } = header;
    // EXIF orientations 5 to 8 turn the picture a quarter: its sides swap once upright.
    const turned = orientation >= 5;
    const original = await strippedOriginal(input, path, format, orientation);
    const small = await image
      .rotate()
      .resize(THUMB_SIDE_PX, THUMB_SIDE_PX, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = {
      raw: { width: small.info.width, height: small.info.height, channels: small.info.channels },
    };
    const thumb = await sharp(small.data, raw).webp({ quality: 70 }).toBuffer();
    const tiny = await sharp(small.data, raw)
      .resize(PLACEHOLDER_SIDE_PX, PLACEHOLDER_SIDE_PX, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const hash = rgbaToThumbHash(tiny.info.width, tiny.info.height, tiny.data);
    return {
      original,
      thumb: { data: thumb, mime: 'image/webp' },
      width: turned ? height : width,
      height: turned ? width : height,
      placeholder: Buffer.from(hash).toString('base64'),
    };
  } catch {
    throw new AppError('IMAGE_INVALID');
  }
}

async function strippedOriginal(
  input: Buffer,
  path: string,
  format: string | undefined,
  orientation: number,
): Promise<Original> {
  if (format === 'jpeg') {
    const stripped = stripJpegHead(input, orientation);
    if (!stripped) throw new AppError('IMAGE_INVALID');
    const { scanFrom, end } = stripped;
    if (stripped.between.length === 0) {
      const blanked =
        scanFrom - stripped.head.length <= end * BLANKED_SHARE
          ? padJpegHead(stripped.head, scanFrom)
          : null;
      // The staged file is ours: what follows the picture is cut off where it lies.
      if (end < input.length) await truncate(path, end);
      return { head: blanked ?? stripped.head, path, from: scanFrom, mime: 'image/jpeg' };
    }
  }
  if (format === 'jpeg' || format === 'png' || format === 'gif') {
    const data =
      format === 'jpeg'
        ? stripJpeg(input, orientation)
        : format === 'png'
          ? stripPng(input)
          : stripGif(input);
    if (!data) throw new AppError('IMAGE_INVALID');
    return { data, mime: `image/${format}` };
  }
  const data = await sharp(input, { animated: true, limitInputPixels: MAX_IMAGE_PIXELS })
    .webp({ quality: 90 })
    .toBuffer();
  return { data, mime: 'image/webp' };
}

/** A file's type by its bytes; what cannot be told is a plain stream of bytes. */
export async function sniffFile(path: string): Promise<string> {
  return (await fileTypeFromFile(path))?.mime ?? 'application/octet-stream';
}
