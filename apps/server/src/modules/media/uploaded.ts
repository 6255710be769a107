import type { UploadedMedia } from '@teltlk/protocol';
import type { MediaRow } from '../../db/schema.js';

/** A stored media as the protocol shows it; a video with its poster, a photo. */
export function uploadedOf(row: Omit<MediaRow, 'sent'>, poster?: MediaRow): UploadedMedia {
  if (row.kind === 'voice') {
    return {
      kind: 'voice',
      voice: {
        id: row.id,
        durationMs: Number(row.duration_ms ?? 0),
        size: Number(row.size),
        mime: row.mime,
        ...(row.waveform ? { waveform: row.waveform } : {}),
      },
    };
  }
  if (row.kind === 'video' && poster) {
    const image = uploadedOf(poster);
    if (image.kind !== 'image') throw new Error(`the poster of ${row.id} is no photo`);
    return {
      kind: 'video',
      video: {
        id: row.id,
        width: Number(row.width),
        height: Number(row.height),
        durationMs: Number(row.duration_ms ?? 0),
        size: Number(row.size),
        mime: row.mime,
        poster: image.image,
      },
    };
  }
  if (row.kind === 'image') {
    return {
      kind: 'image',
      image: {
        id: row.id,
        width: Number(row.width),
        height: Number(row.height),
        size: Number(row.size),
        mime: row.mime,
        ...(row.placeholder ? { placeholder: row.placeholder } : {}),
      },
    };
  }
  return {
    kind: 'file',
    file: { id: row.id, name: row.name, size: Number(row.size), mime: row.mime },
  };
}
