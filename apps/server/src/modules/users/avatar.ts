import { AVATAR_SIZE_PX } from '@teltlk/protocol';
import sharp from 'sharp';
import { AppError } from '../../errors.js';

/** Refuses images that would decode to more than this many pixels (a 5 MB PNG can hold far more). */
const MAX_INPUT_PIXELS = 50_000_000;

/**
 * Any image sharp can read becomes a square WebP of AVATAR_SIZE_PX, turned upright by its
 * EXIF orientation, with all metadata (location, camera) dropped.
 */
export async function toAvatarWebp(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError('IMAGE_INVALID');
  }
}
