import type { OutgoingMedia } from '@teltlk/im-sdk';
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

/** Longest side of a video's poster photo. */
const POSTER_MAX_SIDE_PX = 960;
/** How long the browser may take to open a picked video before it is called unreadable. */
const VIDEO_OPEN_TIMEOUT_MS = 15_000;

/** A video ready to send: its bytes, size, length and a poster photo taken from it. */
export type PreparedVideo = Omit<Extract<OutgoingMedia, { kind: 'video' }>, 'kind'>;

/**
 * Opens a picked video in the browser to read its size and length and draw a poster
 * frame from it (a little way in, past a black first frame), so the server needs no
 * video tools. Null when this browser cannot read the video.
 */
export async function prepareVideo(file: File): Promise<PreparedVideo | null> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  try {
    const opened = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), VIDEO_OPEN_TIMEOUT_MS);
      video.onloadeddata = () => {
        clearTimeout(timer);
        resolve(true);
      };
      video.onerror = () => {
        clearTimeout(timer);
        resolve(false);
      };
      video.src = url;
    });
    if (!opened || !video.videoWidth || !video.videoHeight) return null;
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    const at = Math.min(0.5, duration / 2);
    if (at > 0) {
      await new Promise<void>((resolve) => {
        video.onseeked = () => resolve();
        video.currentTime = at;
      });
    }
    const scale = Math.min(1, POSTER_MAX_SIDE_PX / Math.max(video.videoWidth, video.videoHeight));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
    canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    const poster = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', 0.85),
    );
    if (!poster) return null;
    return {
      blob: file,
      name: file.name,
      width: video.videoWidth,
      height: video.videoHeight,
      durationMs: Math.round(duration * 1000),
      poster: { blob: poster, width: canvas.width, height: canvas.height },
    };
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** A length as a clock shows it: 0:07, 1:05, 1:02:03. */
export function clockDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}
