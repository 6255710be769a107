import { AppError } from '../../errors.js';
import { StagedFile, Unreadable } from './staged-file.js';
import { stripIsoBmff } from './strip-mp4.js';
import { stripMatroska } from './strip-matroska.js';
import { stripOgg } from './strip-ogg.js';

/*
 * Voice messages and videos lose their metadata (place, names, times, tags, attachments)
 * without being encoded again, and without being muxed again either: each container's
 * metadata is overwritten where it lies, with padding of the same size that the
 * container itself defines (an MP4 `free` box, a Matroska Void element, an Ogg comment
 * header emptied in its own pages), and bytes no track plays are zeroed. No offset in
 * the file moves, so the indexes (stco/co64, Cues, Ogg granules) stay right, and every
 * byte that is played is the byte that was uploaded.
 *
 * Why not the others: ffmpeg (`-map_metadata -1 -c copy`) would be a system program the
 * server needs, where `npm ci && npm start` is all a machine gets, and a remux writes a
 * new file whose timing, edit lists and codec boxes are the muxer's reading of the old
 * one. A JavaScript muxer from npm (mediabunny and the like) is the same remux in
 * process: it rewrites the whole file, keeps only the codecs and boxes it knows, and
 * the result is its own. Overwriting in place needs only the containers' framing, reads
 * a 100 MB film in windows instead of holding it, and writes a few zeros.
 */

/** The containers stripped, by the type the bytes were sniffed as. */
const CONTAINERS: Record<string, (file: StagedFile) => Promise<void>> = {
  'video/mp4': stripIsoBmff,
  'audio/mp4': stripIsoBmff,
  'audio/x-m4a': stripIsoBmff,
  'video/x-m4v': stripIsoBmff,
  'video/quicktime': stripIsoBmff,
  'video/3gpp': stripIsoBmff,
  'video/3gpp2': stripIsoBmff,
  'video/webm': stripMatroska,
  'audio/webm': stripMatroska,
  'video/matroska': stripMatroska,
  'video/x-matroska': stripMatroska,
  'audio/x-matroska': stripMatroska,
  'audio/ogg': stripOgg,
  'audio/ogg; codecs=opus': stripOgg,
  'audio/opus': stripOgg,
  'video/ogg': stripOgg,
};

/** Whether a voice message or a video of this type (by its bytes) can be stripped. */
export function isStrippable(mime: string): boolean {
  return Object.hasOwn(CONTAINERS, mime);
}

/**
 * Takes the metadata out of a staged voice message or video, in place. A type whose
 * container is not one of these, or a file its container does not describe to its last
 * byte (cut short, malformed, a stream of a kind not known), is refused as unsupported:
 * nothing is changed or stored.
 */
export async function stripRecording(path: string, mime: string): Promise<void> {
  const strip = Object.hasOwn(CONTAINERS, mime) ? CONTAINERS[mime] : undefined;
  if (!strip) throw new AppError('MEDIA_TYPE_UNSUPPORTED');
  const file = await StagedFile.open(path);
  try {
    await strip(file);
    await file.apply();
  } catch (error) {
    if (error instanceof Unreadable || error instanceof RangeError) {
      throw new AppError('MEDIA_TYPE_UNSUPPORTED');
    }
    throw error;
  } finally {
    await file.close();
  }
}
