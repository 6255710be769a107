import { AVATAR_SIZE_PX } from '@teltlk/protocol';
import { AppError } from '../../errors.js';
import { openImage } from '../files/images.js';

/**
 * A JPEG, PNG, WebP or GIF image becomes a square WebP of AVATAR_SIZE_PX, turned upright by
 * its EXIF orientation, with all metadata (location, camera) dropped. Other kinds and
 * images over the pixel limit are refused before anything is decoded.
 */
export async function toAvatarWebp(input: Buffer): Promise<Buffer> {
  const { image } = await openImage(input);
  try {
    return await image
      .rotate()
      .resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError('IMAGE_INVALID');
  }
}
