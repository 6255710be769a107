import { cleanFileName, type MessageContent } from '@teltlk/protocol';
import type { OutgoingMedia } from './types.js';

/** The media id a photo or file carries on this device until the server stored it. */
export const PENDING_MEDIA_ID = '0'.repeat(20);

/** What this device shows of media of ours until the server stored it. */
export function pendingContent(
  media: OutgoingMedia,
): Extract<MessageContent, { kind: OutgoingMedia['kind'] }> {
  const size = media.blob.size;
  const mime = media.blob.type || 'application/octet-stream';
  switch (media.kind) {
    case 'image':
      return {
        kind: 'image',
        image: { id: PENDING_MEDIA_ID, width: media.width, height: media.height, size, mime },
      };
    case 'file':
      return {
        kind: 'file',
        file: { id: PENDING_MEDIA_ID, name: cleanFileName(media.name), size, mime },
      };
    case 'voice':
      return {
        kind: 'voice',
        voice: {
          id: PENDING_MEDIA_ID,
          durationMs: media.durationMs,
          size,
          mime,
          waveform: media.waveform,
        },
      };
    case 'video':
      return {
        kind: 'video',
        video: {
          id: PENDING_MEDIA_ID,
          width: media.width,
          height: media.height,
          durationMs: media.durationMs,
          size,
          mime,
          poster: {
            id: PENDING_MEDIA_ID,
            width: media.poster.width,
            height: media.poster.height,
            size: media.poster.blob.size,
            mime: media.poster.blob.type || 'image/jpeg',
          },
        },
      };
  }
}

/** What the server is told of media beside its bytes: lengths, a waveform, a size. */
export function uploadMetadata(media: OutgoingMedia): Record<string, string> {
  if (media.kind === 'voice') {
    return { durationMs: String(Math.round(media.durationMs)), waveform: media.waveform };
  }
  if (media.kind === 'video') {
    return {
      durationMs: String(Math.round(media.durationMs)),
      width: String(media.width),
      height: String(media.height),
    };
  }
  return {};
}
