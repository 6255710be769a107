import { AppError } from '../../errors.js';
import { openImage } from '../files/images.js';

/** Side of an NFT's square picture, enough for a sharp detail view on a phone. */
export const NFT_IMAGE_PX = 512;

/**
 * A JPEG, PNG, WebP or GIF picture becomes a square WebP of NFT_IMAGE_PX, contained on a
 * transparent square (a badge keeps its whole outline), with all metadata dropped.
 */
export async function toNftWebp(input: Buffer): Promise<Buffer> {
  const { image } = await openImage(input);
  try {
    return await image
      .rotate()
      .resize(NFT_IMAGE_PX, NFT_IMAGE_PX, {
        fit: 'contain',
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      })
      .webp({ quality: 88 })
      .toBuffer();
  } catch {
    throw new AppError('IMAGE_INVALID');
  }
}
