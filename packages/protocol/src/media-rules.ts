/**
 * Media messages (photos and files): the rules both ends share, free of schemas so the
 * web app can use them without loading zod.
 */

/** The kinds of uploaded media a message can carry. */
export const MEDIA_KINDS = ['image', 'file', 'voice', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Photos picked at once: each becomes a message of its own, in order. */
export const IMAGES_PER_PICK_MAX = 9;

/** Longest voice message (spec): recording stops here. */
export const VOICE_MAX_MS = 60_000;

/** Bars of a voice message's waveform, each one byte of loudness (0–255). */
export const WAVEFORM_BARS = 48;

/** Playback rates of the video player (spec). */
export const VIDEO_RATES = [0.5, 0.8, 1, 1.25, 1.5, 2] as const;

/** Longest file name kept with a file (characters); longer ones keep their end. */
export const FILE_NAME_MAX_LENGTH = 255;

/** Media ids one call may ask URLs for. */
export const MEDIA_URLS_MAX = 100;

/** Where uploads go (the tus protocol, version 1.0.0, with creation and termination). */
export const UPLOADS_PATH = '/api/v1/uploads';

/** A media id: 20 base32 characters (100 random bits), the upload's id as well. */
export const MEDIA_ID_PATTERN = /^[0-9a-z]{20}$/;

/** Photo formats the server accepts, by the type their bytes show. */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/** Whether a browser's type for a picked file is one of the accepted photo formats. */
export function isAcceptedImageType(type: string): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(type);
}

/**
 * A file name as it is kept: no path, no control characters, at most
 * FILE_NAME_MAX_LENGTH characters (the start is cut, so the extension stays); 'file' when
 * nothing is left.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const plain = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const chars = Array.from(plain);
  const kept = chars.length > FILE_NAME_MAX_LENGTH ? chars.slice(-FILE_NAME_MAX_LENGTH) : chars;
  return kept.join('') || 'file';
}
