import { readFile } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { rgbaToThumbHash } from 'thumbhash';
import { AppError } from '../../errors.js';
import { openImage } from '../files/images.js';

/** Longest side of a thumbnail: a chat bubble at twice its CSS size. */
const THUMB_SIDE_PX = 480;
/** ThumbHash works on at most 100×100 pixels. */
const PLACEHOLDER_SIDE_PX = 100;

/** A stored object to be: bytes and their type. */
export interface Rendition {
  data: Buffer;
  mime: string;
}

/** A photo made ready to store: the original (upright, metadata gone), its thumbnail, a placeholder. */
export interface ProcessedImage {
  original: Rendition;
  thumb: Rendition;
  width: number;
  height: number;
  placeholder: string;
}

/**
 * Reads an uploaded photo from disk and makes it ready to store. Its type is what its
 * bytes show (openImage refuses anything but JPEG, PNG, WebP and GIF, and pixel bombs).
 * It is turned upright by its EXIF orientation and written again without metadata
 * (camera, place, time); a GIF keeps its bytes, animation and all (it carries no EXIF).
 */
export async function processImage(path: string): Promise<ProcessedImage> {
  const input = await readFile(path);
  let image;
  try {
    image = await openImage(input);
  } catch (error) {
    // openImage names the avatar's errors; here they are a photo's.
    if (error instanceof AppError && error.code === 'IMAGE_TYPE_UNSUPPORTED') {
      throw new AppError('MEDIA_TYPE_UNSUPPORTED');
    }
    throw error;
  }
  try {
    const { format, width, height, orientation } = await image.metadata();
    // EXIF orientations 5 to 8 turn the picture a quarter: its sides swap once upright.
    const turned = (orientation ?? 1) >= 5;
    const upright = image.rotate();
    let original: Rendition;
    if (format === 'gif') original = { data: input, mime: 'image/gif' };
    else if (format === 'png') {
      original = { data: await upright.clone().png().toBuffer(), mime: 'image/png' };
    } else if (format === 'webp') {
      original = {
        data: await upright.clone().webp({ quality: 90 }).toBuffer(),
        mime: 'image/webp',
      };
    } else {
      original = {
        data: await upright.clone().jpeg({ quality: 90, mozjpeg: true }).toBuffer(),
        mime: 'image/jpeg',
      };
    }
    const thumb = await upright
      .clone()
      .resize(THUMB_SIDE_PX, THUMB_SIDE_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
    const small = await upright
      .clone()
      .resize(PLACEHOLDER_SIDE_PX, PLACEHOLDER_SIDE_PX, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const hash = rgbaToThumbHash(small.info.width, small.info.height, small.data);
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

/** A file's type by its bytes; what cannot be told is a plain stream of bytes. */
export async function sniffFile(path: string): Promise<string> {
  return (await fileTypeFromFile(path))?.mime ?? 'application/octet-stream';
}
