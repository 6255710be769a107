import { isAcceptedImageType } from '@teltlk/protocol';

/** A photo's box in a bubble: its own shape within these bounds (CSS pixels). */
const PHOTO_MAX_WIDTH = 220;
const PHOTO_MAX_HEIGHT = 260;
const PHOTO_MIN_SIDE = 72;

export function photoBox(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(PHOTO_MAX_WIDTH / width, PHOTO_MAX_HEIGHT / height, 1);
  return {
    width: Math.max(PHOTO_MIN_SIDE, Math.round(width * scale)),
    height: Math.max(PHOTO_MIN_SIDE, Math.round(height * scale)),
  };
}

/** A size as people read it, in the locale's digits: 532 B, 48 KB, 3.4 MB. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 || value >= 10 ? 0 : 1,
  }).format(value);
}

/** Longest side a photo keeps when the phone's camera made it larger. */
export const PHOTO_MAX_SIDE_PX = 4096;

/** A photo ready to send: its bytes, name and upright size. */
export interface PreparedPhoto {
  blob: Blob;
  name: string;
  width: number;
  height: number;
}

/**
 * A picked photo as it will be sent. A very large one (past PHOTO_MAX_SIDE_PX, or past
 * the server's limit) is drawn again smaller as a JPEG, so a slow network does not carry
 * pixels nobody sees; an animated GIF is left whole. Null when the browser cannot read it.
 */
export async function preparePhoto(
  file: File,
  maxBytes: number | null,
): Promise<PreparedPhoto | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  const { width, height } = bitmap;
  const tooLarge =
    Math.max(width, height) > PHOTO_MAX_SIDE_PX || (maxBytes !== null && file.size > maxBytes);
  if (!tooLarge || file.type === 'image/gif') {
    bitmap.close();
    return { blob: file, name: file.name, width, height };
  }
  const scale = Math.min(1, PHOTO_MAX_SIDE_PX / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) =>
    canvas.toBlob(resolve, 'image/jpeg', 0.9),
  );
  if (!blob) return null;
  return {
    blob,
    name: file.name.replace(/\.[^.]*$/, '') + '.jpg',
    width: canvas.width,
    height: canvas.height,
  };
}

/** Which of the picked files are photos the server takes (by the browser's type). */
export function splitPhotos(files: readonly File[]): { photos: File[]; others: File[] } {
  const photos: File[] = [];
  const others: File[] = [];
  for (const file of files) (isAcceptedImageType(file.type) ? photos : others).push(file);
  return { photos, others };
}
